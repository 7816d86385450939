// Starts a real server for the end-to-end suite on E2E_PORT over a fresh, throw-away database, and removes
// it when Playwright stops the run. playwright.config.ts starts one per worker, each on its own port.
// Expects web/dist to be built (npm run test:e2e builds it first).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ADMIN, dataDirPointer, E2E_PORT, fakeWechatPortPointer } from './env.ts';

/** A loopback port free now (for the WeChat Pay fake a spec starts later). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function main(): Promise<void> {
  const repoRoot = path.resolve(import.meta.dirname, '..');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-e2e-'));
  // Where this port's database lives, for specs that set up rows no screen makes (e2e/terminal-config.spec.ts).
  const pointer = dataDirPointer(E2E_PORT);
  fs.writeFileSync(pointer, dataDir);
  // WeChat Pay (V2 and V3: one host) is a fake on loopback, started by the spec that sells through it
  // (e2e/real-gateway-journey.spec.ts) on this port: plain HTTP, which the fake's one port also speaks.
  const wechatPort = await freePort();
  const wechatPointer = fakeWechatPortPointer(E2E_PORT);
  fs.writeFileSync(wechatPointer, String(wechatPort));
  const child = spawn(process.execPath, [path.join(repoRoot, 'server/src/main.ts')], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: ADMIN.password,
      E2E_SEED: '1',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      // Failed logins in the suite must neither slow it down nor lock the shared accounts.
      LOGIN_SLOWDOWN_MS: '0',
      LOGIN_LOCKOUT_AFTER: '1000',
      LOGIN_IP_LOCKOUT_AFTER: '100000',
      LOGIN_ACCOUNT_LOCKOUT_AFTER: '100000',
      // The order sweeper every second: what it does to the specs' orders shows at once, not by luck of timing.
      PAY_SWEEP_SECONDS: '1',
      WECHATPAY_BASE_URL: `http://127.0.0.1:${wechatPort}`,
    },
  });

  let cleaned = false;
  const cleanUp = () => {
    if (cleaned) return;
    cleaned = true;
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(pointer, { force: true });
    fs.rmSync(wechatPointer, { force: true });
  };
  const stop = (signal: NodeJS.Signals) => {
    if (child.exitCode === null) child.kill(signal);
    else {
      cleanUp();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  child.on('exit', (code, signal) => {
    cleanUp();
    process.exit(code ?? (signal ? 0 : 1));
  });
}

void main();
