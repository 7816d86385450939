// `npm test`: the whole suite — types, import rules, unit and integration (SQLite, and PostgreSQL/Redis when
// TEST_DATABASE_URL / TEST_REDIS_URL are set), then the console built and driven in Chromium.
import path from 'node:path';
import { run, runOrExit } from './run.ts';

// The suite starts Node on the same sources many times (each server process a test or a bench starts, the
// end-to-end servers, tsc): Node's compile cache keeps V8's compiled code of each module between those starts
// (a start of the server's modules: about 1.8 s of CPU without it, 1.0 s with it on this machine). Kept in
// node_modules, which npm ci clears.
process.env.NODE_COMPILE_CACHE ??= path.join(import.meta.dirname, '../node_modules/.cache/node-compile-cache');

const step = (title: string) => console.log(`\n== ${title} ==`);

step('Type check');
runOrExit('npm', ['run', 'typecheck']);

// The import rules (.dependency-cruiser.mjs): no cycles, no upward imports between layers.
step('Import rules');
runOrExit('npx', ['depcruise', '--config', '.dependency-cruiser.mjs', 'contract/src', 'server/src', 'web/src', 'tools', 'scripts', 'bench', 'e2e']);

// The console's use of deprecated API (tools/deprecated-api/check.ts): an antd prop a development build warns of.
step('Deprecated API');
runOrExit(process.execPath, ['tools/deprecated-api/check.ts']);

step('Unit and integration tests');
if (!process.env.TEST_DATABASE_URL) {
  console.log('PostgreSQL leg skipped: TEST_DATABASE_URL is not set (the suite runs on SQLite only).');
} else if (!process.env.TEST_REDIS_URL) {
  console.log('Redis leg skipped: TEST_REDIS_URL is not set (PostgreSQL runs with database sessions).');
}
const unit = run('npx', ['vitest', 'run']);

step('End-to-end tests (Chromium)');
const e2e = unit === 0 ? run('npm', ['run', 'test:e2e']) : 1;
if (unit !== 0) console.log('End-to-end tests not run: the unit and integration tests failed.');

process.exit(unit || e2e);
