import os from 'node:os';
import { defineConfig } from 'vitest/config';

// The server suite runs on SQLite always, and again on PostgreSQL (with Redis when TEST_REDIS_URL is
// set) when TEST_DATABASE_URL names a server. Each test file makes its own database and drops it (a run that
// leaves one behind fails: server/src/test/no-leftover-databases.ts).
// The device simulator's run against a real server belongs to the server suite; its other tests do not.
const simulatorRun = 'tools/device-simulator/run-devices.test.ts';
const terminalRun = 'tools/terminal-simulator/run-terminals.test.ts';
// The phone bridge between the fake phones and a real server, likewise.
const phoneBridgeRun = 'tools/phone-bridge/bridge.test.ts';
const serverTests = ['server/src/**/*.test.ts', simulatorRun, terminalRun, phoneBridgeRun];
const postgres = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    // One test file a core and one more (Vitest's default leaves one core to itself: a single worker on two
    // cores). The files spend much of their time waiting on PostgreSQL, Redis and the server processes they
    // start: on two cores, two workers left the machine idle a fair part of the run (the whole leg 448 s),
    // three keep it ~90 % busy (360 s).
    maxWorkers: os.availableParallelism() + 1,
    // A worker runs file after file in one module graph rather than a fresh one per file: importing the server's
    // modules anew for each file was a third of the server suite's time. Each file builds its own app and
    // database, and nothing a test needs lives in module state it could inherit.
    isolate: false,
    projects: [
      { test: { name: 'contract', include: ['contract/src/**/*.test.ts'] } },
      { test: { name: 'web', include: ['web/src/**/*.test.ts', 'web/build/**/*.test.ts'] } },
      { test: { name: 'tools', include: ['tools/**/*.test.ts'], exclude: [simulatorRun, terminalRun, phoneBridgeRun] } },
      { test: { name: 'server-sqlite', include: serverTests, env: { TEST_DB: 'sqlite' }, testTimeout: 20_000, hookTimeout: 30_000 } },
      // every bench in its smoke mode (bench/lib/smoke.ts): a bench that no longer runs fails here
      { test: { name: 'bench', include: ['bench/**/*.test.ts'], env: { TEST_DB: 'sqlite' }, testTimeout: 120_000 } },
      ...(postgres
        ? [
          { test: { name: 'server-postgres', include: serverTests, env: { TEST_DB: 'postgres' }, testTimeout: 30_000, hookTimeout: 30_000, globalSetup: ['server/src/test/no-leftover-databases.ts'] } },
          // the benches that have a database, again on PostgreSQL (no leftover check of its own: the setup above names
          // the run in process.env, which a second setup would overwrite for both projects)
          { test: { name: 'bench-postgres', include: ['bench/**/*.test.ts'], env: { TEST_DB: 'postgres' }, testTimeout: 120_000 } },
        ]
        : []),
    ],
  },
});
