// The console-size benchmark: the bytes a browser really transfers on a cold load of each
// screen (cache disabled, fresh context, Accept-Encoding: br, gzip), read from Chromium's own
// Network.loadingFinished encodedDataLength through CDP, beside the same load with no compression
// (Accept-Encoding: identity) measured in the same run, and the main-thread work of each load (CDP
// Performance.getMetrics TaskDuration / ScriptDuration).   npm run bench -- bundle
import { chromium, type Browser } from '@playwright/test';
import { consoleRoutes, type ConsoleRoute } from '@huiyun/contract';
import { ensureConsoleBuild } from '../scripts/web-build.ts';
import { runOrExit } from '../scripts/run.ts';
import { ADMIN_PASSWORD, loginAs, startBenchServer } from './lib/server.ts';
import { reportRecount, smoke } from './lib/smoke.ts';

const TARGET_LOGIN_KB = 200;
const TARGET_SCREEN_KB = 400;
const QUIET_MS = smoke ? 300 : 1_500;
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'];

ensureConsoleBuild();
runOrExit(process.execPath, [new URL('../scripts/ensure-chromium.ts', import.meta.url).pathname]); // Debian's Chromium, as the end-to-end tests drive it

type Load = { bytes: number; requests: number; files: Map<string, number>; taskMs: number; scriptMs: number; firstView?: FirstView };
type FirstView = { bytes: number; requests: number; files: Set<string> };

// 数据可视化 draws its cards and tables from its figures and asks for the chart library after they have come
// (useChartLibrary, EChart.tsx's chunk): its first view is every request sent before the figures' answer had arrived, and
// the load is over once the five charts are drawn.
const FIRST_VIEWS: Record<string, { figures: string; drawn: string; count: number; targetKb: number; later: RegExp }> = {
  '/charts/statistics': { figures: '/api/Charts/statistics', drawn: '.sales-chart canvas', count: 5, targetKb: 450, later: /^\/assets\/EChart-/ },
};

/** One cold load of `path`: every response's encoded (on-the-wire) length until the network is idle. */
async function coldLoad(browser: Browser, baseUrl: string, path: string, token: string | null, encoding: string): Promise<Load> {
  const context = await browser.newContext({ locale: 'zh-CN', timezoneId: 'Asia/Shanghai', viewport: { width: 1366, height: 768 } });
  if (token) {
    const session = { logintoken: token, userId: '1', code: '1', userInfo: JSON.stringify({ userId: 1, userName: 'admin', code: 1 }) };
    await context.addInitScript({ content: `for (const [k, v] of Object.entries(${JSON.stringify(session)})) sessionStorage.setItem(k, v);` });
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': encoding } });
  await cdp.send('Performance.enable');
  const load: Load = { bytes: 0, requests: 0, files: new Map(), taskMs: 0, scriptMs: 0 };
  const firstView = FIRST_VIEWS[path];
  if (firstView) load.firstView = { bytes: 0, requests: 0, files: new Set() };
  const urls = new Map<string, string>();
  const sentBeforeFigures = new Set<string>();
  let figuresCame = false;
  let lastEvent = Date.now();
  cdp.on('Network.requestWillBeSent', (event) => {
    urls.set(event.requestId, event.request.url.replace(baseUrl, ''));
    if (!figuresCame) sentBeforeFigures.add(event.requestId);
    lastEvent = Date.now();
  });
  cdp.on('Network.loadingFinished', (event) => {
    const url = urls.get(event.requestId) ?? event.requestId;
    load.bytes += event.encodedDataLength;
    load.requests += 1;
    load.files.set(url, event.encodedDataLength);
    if (load.firstView && sentBeforeFigures.has(event.requestId)) {
      load.firstView.bytes += event.encodedDataLength;
      load.firstView.requests += 1;
      load.firstView.files.add(url);
    }
    if (firstView && url.startsWith(firstView.figures)) figuresCame = true;
    lastEvent = Date.now();
  });
  await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
  // The screen's own chunk comes after the session check: wait for what the screen shows, then for quiet.
  await page.waitForSelector(token ? '.ant-layout-content > *' : 'button[type=submit]');
  if (firstView) await page.locator(firstView.drawn).nth(firstView.count - 1).waitFor();
  while (Date.now() - lastEvent < QUIET_MS) await page.waitForTimeout(100);
  // Main-thread work of the load (all tasks, and the script part of them), as Chromium counts it.
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string) => Math.round((metrics.find((m) => m.name === name)?.value ?? 0) * 1000);
  load.taskMs = metric('TaskDuration');
  load.scriptMs = metric('ScriptDuration');
  await context.close();
  return load;
}

const server = await startBenchServer();
const token = await loginAs(server, 'admin', ADMIN_PASSWORD);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });

// BUNDLE_DETAIL=/task/index lists what that screen's cold load transferred, largest first.
const detail = process.env.BUNDLE_DETAIL;
const routes: { name: string; url: string; login: boolean }[] = [
  { name: '登录', url: '/login', login: false },
  ...consoleRoutes.map((route: ConsoleRoute) => ({ name: route.name, url: route.url, login: true })),
].slice(0, smoke ? 2 : undefined); // a smoke run: the login screen and one console screen
if (detail) {
  const load = await coldLoad(browser, server.url, detail, detail === '/login' ? null : token, 'br, gzip');
  const later = load.firstView ? ' (after the first view)' : '';
  for (const [url, bytes] of [...load.files].sort((a, b) => b[1] - a[1])) console.log(`${(bytes / 1024).toFixed(1).padStart(8)} KB  ${url}${load.firstView?.files.has(url) === false ? later : ''}`);
  if (load.firstView) console.log(`${(load.firstView.bytes / 1024).toFixed(1).padStart(8)} KB  first view`);
  console.log(`${(load.bytes / 1024).toFixed(1).padStart(8)} KB  total`);
  await browser.close();
  await server.close();
  process.exit(0);
}
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
console.log(`Cold loads in Chromium, cache disabled, on ${server.url}\n`);
console.log('| screen | url | br/gzip KB | identity KB (baseline) | requests | target KB | met | main thread ms | script ms |');
console.log('|---|---|---:|---:|---:|---:|---|---:|---:|');
let heaviest = { name: '', bytes: 0 };
const firstViewLines: string[] = [];
const problems: string[] = []; // the recount: every load showed its screen (coldLoad waited for it) and transferred its files
for (const route of routes) {
  const compressed = await coldLoad(browser, server.url, route.url, route.login ? token : null, 'br, gzip');
  const identity = await coldLoad(browser, server.url, route.url, route.login ? token : null, 'identity');
  const firstView = FIRST_VIEWS[route.url];
  const target = firstView?.targetKb ?? (route.login ? TARGET_SCREEN_KB : TARGET_LOGIN_KB);
  for (const load of [compressed, identity]) if (!load.requests || !load.bytes) problems.push(`${route.url}: ${load.requests} requests, ${load.bytes} bytes`);
  if (compressed.bytes >= identity.bytes) problems.push(`${route.url}: ${compressed.bytes} bytes compressed, not fewer than ${identity.bytes} uncompressed`);
  if (firstView) {
    const first = compressed.firstView!;
    const later = [...compressed.files].filter(([url]) => !first.files.has(url));
    if (![...first.files].some((url) => url.startsWith(firstView.figures))) problems.push(`${route.url}: its figures (${firstView.figures}) were not in its first view`);
    if ([...first.files].some((url) => firstView.later.test(url))) problems.push(`${route.url}: the chart library came before the figures`);
    if (!later.some(([url]) => firstView.later.test(url))) problems.push(`${route.url}: the chart library was not loaded after the figures`);
    const laterKb = kb(later.reduce((sum, [, bytes]) => sum + bytes, 0));
    firstViewLines.push(`${route.name}: first view ${kb(first.bytes)} KB in ${first.requests} requests (every request sent before its figures came; target ≤ ${firstView.targetKb} KB: ${first.bytes <= firstView.targetKb * 1024 ? 'met' : 'NOT met'}), then ${laterKb} KB (${later.map(([url]) => url).join(', ')}) until its charts were drawn`);
  } else if (route.login && compressed.bytes > heaviest.bytes) heaviest = { name: route.name, bytes: compressed.bytes };
  console.log(`| ${route.name} | ${route.url} | ${kb(compressed.bytes)} | ${kb(identity.bytes)} | ${compressed.requests} | ${target} | ${compressed.bytes <= target * 1024 ? 'yes' : 'NO'} | ${compressed.taskMs} | ${compressed.scriptMs} |`);
}
console.log(`\nHeaviest screen: ${heaviest.name}, ${kb(heaviest.bytes)} KB (target ≤ ${TARGET_SCREEN_KB} KB).`);
for (const line of firstViewLines) console.log(line);
await browser.close();
await server.close();
reportRecount(problems);
