import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// infra/cluster-gather.ts with real processes (cluster-gather.fixture.ts): a gather is answered by the
// processes that answer in time; one that is late (past the primary's 2 s) or fails is left out, and the
// gather does not wait for the late one's answer (10 s, beyond this test's time limit).
describe('one answer from every server process', () => {
  it('leaves out a process that answers late or fails', async () => {
    const fixture = path.join(import.meta.dirname, 'cluster-gather.fixture.ts');
    const { stdout } = await promisify(execFile)(process.execPath, [fixture], { timeout: 8_000 });
    // (the asking process's own fallback, past 3 s without the primary, would answer ['prompt'] alone)
    expect((JSON.parse(stdout.trim()) as string[]).sort()).toEqual(['prompt', 'prompt too']);
  }, 10_000);
});
