import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import type { Kysely, Updateable } from 'kysely';
import type { AppContext } from '../../server/src/context.ts';
import type { Database } from '../../server/src/db/schema.ts';
import { importNumbers } from '../../server/src/modules/sending/tasks/index.ts';
import { generateNumberFile } from './number-file-fixture.ts';

export type ChildServer<T> = T & { pid: number; stop: () => Promise<void> };

/**
 * Runs `file` again in a child process with BENCH_CHILD=server, so the server's peak RSS is its own
 * (not the generated file's or the load generator's). The child prints one JSON line describing
 * itself, then serves until its stdin closes.
 */
export async function startChildServer<T>(file: string, nodeArgs: string[] = [], env: Record<string, string> = {}): Promise<ChildServer<T>> {
  const child = spawn(process.execPath, [...nodeArgs, file], { env: { ...process.env, ...env, BENCH_CHILD: 'server' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.on('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  return {
    ...(JSON.parse(line) as T),
    pid: child.pid!,
    stop: () => new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.stdin.end();
    }),
  };
}

/** An empty running task of account 1 with the SPEC §9 defaults. */
export async function createBenchTask(db: Kysely<Database>, taskName: string): Promise<number> {
  const now = Date.now();
  const { taskId } = await db
    .insertInto('sync_task')
    .values({
      taskName, showType: 1, content: '', imgUrl: '', fileNo: '', fileName: '', qrUrl: 'http://', singleSendNumDay: 300,
      batchSendNum: 10, batchSendMaxNum: 10, intervalSeconds: 1, testNum: 0, testPhone: '', clearNum: 0, isRandomNum: 0,
      randomPosition: 0, taskStatus: 0, userId: 1, deptId: 1, addTime: now, editTime: now,
    })
    .returning('taskId')
    .executeTakeFirstOrThrow();
  return taskId;
}

/** A bench task with its sending settings, filled with `count` generated numbers through the upload path's own import. */
export async function fillBenchTask(ctx: AppContext, name: string, settings: Updateable<Database['sync_task']>, count: number, seed: number): Promise<number> {
  const taskId = await createBenchTask(ctx.db, name);
  await ctx.db.updateTable('sync_task').set(settings).where('taskId', '=', taskId).execute();
  const result = await importNumbers(ctx, { taskId, deptId: 1 }, Readable.from([generateNumberFile(count, { junkRate: 0, duplicateRate: 0, seed })]));
  if (result.valid !== count) throw new Error(`filled ${result.valid} of ${count}`);
  return taskId;
}
