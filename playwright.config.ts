import { defineConfig } from '@playwright/test';
import { BASE_URL as baseURL, E2E_BASE_PORT, E2E_WORKERS } from './e2e/env.ts';

export default defineConfig({
  testDir: 'e2e',
  // One folder per base port: runs on different ports (parallel work trees, CI) never clear each other's artifacts.
  outputDir: `test-results/port-${E2E_BASE_PORT}`,
  workers: E2E_WORKERS,
  retries: 0,
  reporter: 'list',
  // A test is a whole journey (a cold screen load in a fresh context, then 10–30 UI steps): 5–25 s on a
  // quiet two-core machine since the console stopped computing its styles while rendering and traces stopped
  // filming (stop 18: the suite went from 21.8 to 11.3 min); the two longest are marked slow (×3). The
  // budget is for the same journeys with the machine shared: 120 s a journey, 30 s a step
  // (a login, a cold screen, a list refreshed in the background) — a time limit, never a retry. One budget
  // for every spec: specs had grown their own for that same reason (90 or 120 s, 20 or 30 s a step).
  timeout: 120_000,
  expect: { timeout: 30_000 },
  use: {
    // The config is loaded again in each worker: this is the worker's own server (e2e/env.ts).
    baseURL,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    // The console honours prefers-reduced-motion (no antd animations): fewer frames to paint, no click lost
    // in an opening animation. The animated console is the default for operators; these journeys test behaviour.
    reducedMotion: 'reduce',
    // No trace on a first run (Playwright's own default with no retries): recording one for every journey was
    // ~9 % of the leg's CPU (898 → 814 CPU s, docs/performance.md "The suite"). A failing journey leaves a
    // screenshot of where it stopped; E2E_TRACE=1 records a trace of each journey, kept for those that fail.
    trace: process.env.E2E_TRACE === '1' ? { mode: 'retain-on-failure', screenshots: false } : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-quic',
        '--no-first-run',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'console', testIgnore: /password\.spec\.ts/ },
    // Changing a password revokes that account's other sessions: run it after everything else.
    { name: 'password', testMatch: /password\.spec\.ts/, dependencies: ['console'] },
  ],
  // One server and database per worker (e2e/env.ts): no journey waits on, or sees the rows of, another worker's.
  // All of them serve the same built console (web/dist).
  webServer: Array.from({ length: E2E_WORKERS }, (_, worker) => {
    const port = E2E_BASE_PORT + worker;
    return {
      // node_modules/.bin/node is Node 24 (runs TypeScript); the system node may be older.
      command: 'node_modules/.bin/node e2e/server.ts',
      env: { E2E_PORT: String(port) },
      url: `http://127.0.0.1:${port}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe' as const,
      stderr: 'pipe' as const,
      gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 },
    };
  }),
});
