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

type Load = { bytes: number; requests: number; files: Map<string, number>; taskMs: number; scriptMs: number };

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
  const urls = new Map<string, string>();
  let lastEvent = Date.now();
  cdp.on('Network.requestWillBeSent', (event) => {
    urls.set(event.requestId, event.request.url.replace(baseUrl, ''));
    lastEvent = Date.now();
  });
  cdp.on('Network.loadingFinished', (event) => {
    load.bytes += event.encodedDataLength;
    load.requests += 1;
    load.files.set(urls.get(event.requestId) ?? event.requestId, event.encodedDataLength);
    lastEvent = Date.now();
  });
  await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
  // The screen's own chunk comes after the session check: wait for what the screen shows, then for quiet.
  await page.waitForSelector(token ? '.ant-layout-content > *' : 'button[type=submit]');
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
  for (const [url, bytes] of [...load.files].sort((a, b) => b[1] - a[1])) console.log(`${(bytes / 1024).toFixed(1).padStart(8)} KB  ${url}`);
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
const problems: string[] = []; // the recount: every load showed its screen (coldLoad waited for it) and transferred its files
for (const route of routes) {
  const compressed = await coldLoad(browser, server.url, route.url, route.login ? token : null, 'br, gzip');
  const identity = await coldLoad(browser, server.url, route.url, route.login ? token : null, 'identity');
  const target = route.login ? TARGET_SCREEN_KB : TARGET_LOGIN_KB;
  for (const load of [compressed, identity]) if (!load.requests || !load.bytes) problems.push(`${route.url}: ${load.requests} requests, ${load.bytes} bytes`);
  if (compressed.bytes >= identity.bytes) problems.push(`${route.url}: ${compressed.bytes} bytes compressed, not fewer than ${identity.bytes} uncompressed`);
  if (route.login && compressed.bytes > heaviest.bytes) heaviest = { name: route.name, bytes: compressed.bytes };
  console.log(`| ${route.name} | ${route.url} | ${kb(compressed.bytes)} | ${kb(identity.bytes)} | ${compressed.requests} | ${target} | ${compressed.bytes <= target * 1024 ? 'yes' : 'NO'} | ${compressed.taskMs} | ${compressed.scriptMs} |`);
}
console.log(`\nHeaviest screen: ${heaviest.name}, ${kb(heaviest.bytes)} KB (target ≤ ${TARGET_SCREEN_KB} KB).`);
await browser.close();
await server.close();
reportRecount(problems);
