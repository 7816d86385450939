// Every bench (each bench/NAME.ts that `npm run bench -- NAME` runs) in its smoke mode: a tiny size for a
// few seconds (bench/lib/smoke.ts), so that a bench that no longer runs fails the suite. Each must finish
// with exit 0 and print its recount's verdict 'recount: OK'. Nothing here is timed. With TEST_DATABASE_URL the
// `bench-postgres` project runs those with a database again on PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCaptured } from '../scripts/run.ts';

const postgres = process.env.TEST_DB === 'postgres';
/** Benches with no database: run once, in the SQLite project. */
const withoutDatabase = ['bundle'];
const benches = fs.readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.endsWith('.test.ts'))
  .map((f) => f.replace(/\.ts$/, ''))
  .filter((name) => !(postgres && withoutDatabase.includes(name)));

function runBench(name: string, env: Record<string, string> = {}) {
  return runCaptured(process.execPath, [path.join(import.meta.dirname, 'run.ts'), name], {
    env: { ...process.env, BENCH_SMOKE: '1', BENCH_DB: postgres ? 'postgres' : 'sqlite', ...env },
  });
}

describe('every bench in smoke mode', () => {
  it('finds the benches run.ts offers', () => {
    expect(benches).toEqual(expect.arrayContaining(['lists', 'terminal', 'upload']));
  });

  it.each(benches)('%s finishes and its recount holds', async (name) => {
    const { code, output } = await runBench(name);
    expect(output).not.toMatch(/RECOUNT FAILED/);
    expect(output).toMatch(/^recount: OK$/m);
    expect(code, output.slice(-2_000)).toBe(0);
  });

  it('terminal with its machines in two load processes: the recount counts every process\'s orders', async () => {
    const { code, output } = await runBench('terminal', { BENCH_LOAD_PROCESSES: '2' });
    expect(output).toMatch(/connected in .* by 2 load processes/);
    expect(output).toMatch(/^recount: OK$/m);
    expect(code, output.slice(-2_000)).toBe(0);
  });
});
