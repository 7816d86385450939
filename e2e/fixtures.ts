// Shared pieces of the suite: UI login once per worker and account (storageState), message checks,
// unique names so tests never depend on each other's data.
import { test as base, expect, type Browser, type BrowserContext, type BrowserContextOptions, type ConsoleMessage, type Locator, type Page } from '@playwright/test';
import { ADMIN, BASE_URL, E2E_WORKERS, USER1 } from './env.ts';

export { expect };
export type Account = { userName: string; password: string };
type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

/** Fills the login form and submits it (with Enter when asked); does not wait for the result. */
export async function submitLogin(page: Page, account: Account, options: { remember?: boolean; enter?: boolean } = {}) {
  await page.getByPlaceholder('账号').fill(account.userName);
  await page.getByPlaceholder('密码').fill(account.password);
  const remember = page.getByRole('checkbox', { name: '记住密码' });
  if (options.remember) await remember.check();
  else await remember.uncheck();
  if (options.enter) await page.getByPlaceholder('密码').press('Enter');
  else await page.getByRole('button', { name: '登录', exact: true }).click();
}

/** Logs in through the login page and waits for the home screen. */
export async function loginThroughUi(page: Page, account: Account, options: { remember?: boolean } = {}) {
  await page.goto('/login');
  await submitLogin(page, account, options);
  await expect(page).toHaveURL(/\/task\/index$/);
}

async function storageStateOf(browser: Browser, account: Account): Promise<StorageState> {
  const context = await browser.newContext({ baseURL: BASE_URL });
  const page = await context.newPage();
  // 记住密码 puts the session in localStorage, which storageState carries over.
  await loginThroughUi(page, account, { remember: true });
  const state = await context.storageState();
  await context.close();
  return state;
}

async function pageWith(browser: Browser, state: StorageState, use: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ baseURL: BASE_URL, storageState: state, locale: 'zh-CN' });
  await use(await context.newPage());
  await context.close();
}

/**
 * Chromium logs a request that fails — an error answer (401 after a logout, 403, a refused save) or one
 * lost on the way (order.spec.ts aborts a refund's answer) — as a console error. For the server's API the
 * journeys check what the console shows instead; the console's own files (scripts, styles) must load,
 * but for those a journey fails on purpose (`failingAssets`).
 */
function requestFailedAsExpected(message: ConsoleMessage, failingAssets: readonly RegExp[]): boolean {
  if (!message.text().startsWith('Failed to load resource:')) return false;
  const path = new URL(message.location().url, BASE_URL).pathname;
  return !path.startsWith('/assets/') || failingAssets.some((asset) => asset.test(path));
}

/**
 * Records what a browser context's pages report as broken: Content-Security-Policy violations (the
 * page's own `securitypolicyviolation` events: Chromium shows them in DevTools' Issues, not as console
 * messages — a refused `Function('')` probe, say, is caught by its caller and logs nothing), console
 * errors and uncaught exceptions.
 */
async function watchBrowserErrors(context: BrowserContext, problems: string[], failingAssets: readonly RegExp[]): Promise<void> {
  await context.exposeBinding('__e2eCspViolation', ({ page }, text: string) => {
    problems.push(`CSP violation on ${page.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    // Runs in the page (the e2e project has no DOM types).
    type Violation = Event & { effectiveDirective: string; blockedURI: string; sourceFile: string; lineNumber: number };
    const page = globalThis as unknown as { document: EventTarget; __e2eCspViolation(text: string): Promise<void> };
    page.document.addEventListener('securitypolicyviolation', (event) => {
      const e = event as Violation;
      void page.__e2eCspViolation(`${e.effectiveDirective} refused ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  context.on('console', (message) => {
    if (message.type() !== 'error' || requestFailedAsExpected(message, failingAssets)) return;
    problems.push(`console error on ${message.page()?.url()}: ${message.text()} (${message.location().url})`);
  });
  context.on('weberror', (error) => problems.push(`uncaught on ${error.page()?.url()}: ${error.error().message}`));
}

type WorkerFixtures = { ownServer: void; adminState: StorageState; user1State: StorageState };
type TestFixtures = { adminPage: Page; user1Page: Page; browserErrors: void; failingAssets: readonly RegExp[] };

export const test = base.extend<TestFixtures, WorkerFixtures>({
  /** The console's files a journey makes fail on purpose (test.use), whose failed loads are not errors. */
  failingAssets: [[], { option: true }],
  // Every journey fails on a CSP violation, a console error or an uncaught exception in any browser
  // context it opens: the `page` fixture's, adminPage / user1Page, withSideMenu and the specs' own
  // browser.newContext calls all go through `browser.newContext`, watched for the length of the test.
  // Checked after the test's other fixtures have closed their contexts (an automatic fixture is set up
  // first, so it is torn down last).
  browserErrors: [
    async ({ browser, failingAssets }, use) => {
      const problems: string[] = [];
      const newContext = browser.newContext;
      browser.newContext = async (options?: BrowserContextOptions) => {
        const context = await newContext.call(browser, options);
        await watchBrowserErrors(context, problems, failingAssets);
        return context;
      };
      try {
        await use();
      } finally {
        browser.newContext = newContext;
      }
      expect(problems, 'CSP violations, console errors and uncaught exceptions in the browser').toEqual([]);
    },
    { auto: true },
  ],
  // playwright.config.ts starts one server per worker it was told of: a worker beyond them (`--workers` on the
  // command line) would find no server on its port.
  ownServer: [
    async ({}, use, workerInfo) => {
      if (workerInfo.parallelIndex >= E2E_WORKERS) throw new Error(`worker ${workerInfo.parallelIndex} has no server: set E2E_WORKERS (${E2E_WORKERS}) instead of --workers`);
      await use();
    },
    { scope: 'worker', auto: true },
  ],
  adminState: [async ({ browser }, use) => use(await storageStateOf(browser, ADMIN)), { scope: 'worker' }],
  user1State: [async ({ browser }, use) => use(await storageStateOf(browser, USER1)), { scope: 'worker' }],
  adminPage: async ({ browser, adminState }, use) => pageWith(browser, adminState, use),
  user1Page: async ({ browser, user1State }, use) => pageWith(browser, user1State, use),
});

/** A toast (antd message) with exactly this text. */
export function toast(page: Page, text: string) {
  // The same text may show twice in a row (two saves); any one of them will do.
  return page.locator('.ant-message-notice').getByText(text, { exact: true }).first();
}

/** The session token the page's context holds (its storageState), for direct API calls. */
export async function tokenOf(page: Page): Promise<string> {
  const state = await page.context().storageState();
  const item = state.origins.flatMap((o) => o.localStorage).find((i) => i.name === 'logintoken');
  return item?.value ?? '';
}

/** A name no other test (or earlier run) uses. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 7)}`;
}

/** A code no other test uses, of [A-Z0-9-] only (授权码, 部门代码, 机器编号). */
export function uniqueCode(prefix: string): string {
  return uniqueName(prefix).toUpperCase().replace(/_/g, '-');
}

/** The antd confirmation dialog currently open. */
export function confirmDialog(page: Page) {
  return page.locator('.ant-modal-confirm');
}

/**
 * Answers the open confirmation dialog once its opening animation (antd's zoom motion classes) is
 * over: a click that lands during it is lost on a busy machine (seen in CI: 确定 clicked 13 ms after
 * the dialog opened, no request followed).
 */
export async function answerConfirm(page: Page, button: '确定' | '取消') {
  const dialog = confirmDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).not.toHaveClass(/-(appear|enter)/);
  await dialog.getByRole('button', { name: button }).click();
}

/** Logs the account in on a fresh browser, opens every group of the side menu and hands it to `check`. */
export async function withSideMenu(browser: Browser, account: Account, check: (menu: Locator) => Promise<void>) {
  const context = await browser.newContext({ baseURL: BASE_URL, locale: 'zh-CN' });
  const page = await context.newPage();
  await loginThroughUi(page, account);
  const menu = page.locator('.ant-layout-sider .ant-menu');
  await expect(menu.getByRole('link').first()).toBeVisible();
  const closed = menu.locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
  for (let i = 0; i < 10 && (await closed.count()) > 0; i++) await closed.first().click();
  await check(menu);
  await context.close();
}
