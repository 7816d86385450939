import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from './connect.ts';
import { checkpointInBackground, deferAutoCheckpoint, sqliteFileOf } from './sqlite-checkpoint.ts';

// Runs on a SQLite file of its own in every project: the checkpoint is SQLite's alone.
let dir: string;
let db: Kysely<any>;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-checkpoint-'));
  db = connectDatabase({ kind: 'sqlite', file: path.join(dir, 'c.db') }) as Kysely<any>;
});
afterAll(async () => {
  await db?.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const pragma = async (text: string) => (await sql<Record<string, number>>`${sql.raw(`pragma ${text}`)}`.execute(db)).rows[0];

describe('checkpointInBackground', () => {
  it('finds the database file, and none for an in-memory database', async () => {
    expect(await sqliteFileOf(db)).toBe(path.join(dir, 'c.db'));
    const memory = connectDatabase({ kind: 'sqlite', file: ':memory:' });
    expect(await sqliteFileOf(memory)).toBeNull();
    await memory.destroy();
  });

  it('copies a deferred commit\'s WAL into the database on a worker, then turns the automatic checkpoint back on', async () => {
    await sql`create table t (id integer primary key, v text)`.execute(db);
    await db.transaction().execute(async (trx) => {
      await sql`with recursive s(n) as (select 1 union all select n + 1 from s where n < 5000) insert into t (v) select printf('%0500d', n) from s`.execute(trx);
      await deferAutoCheckpoint(trx);
    });
    expect(await pragma('wal_autocheckpoint')).toEqual({ wal_autocheckpoint: 0 });
    // the commit's 2.5 MB are still in the WAL only: nothing was checkpointed at the commit
    const file = path.join(dir, 'c.db');
    expect(fs.statSync(file).size).toBeLessThan(1e6);
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(2.5e6);

    await checkpointInBackground(db, file);
    expect(await pragma('wal_autocheckpoint')).toEqual({ wal_autocheckpoint: 1000 });
    expect(fs.statSync(file).size).toBeGreaterThan(2.5e6);
    // a PASSIVE checkpoint now finds every frame already copied
    const after = await pragma('wal_checkpoint(passive)');
    expect(after.busy).toBe(0);
    expect(after.checkpointed).toBe(after.log);
    expect(await pragma('integrity_check')).toEqual({ integrity_check: 'ok' });
  });

  it('folds requests made while a checkpoint runs into one more pass, and never rejects', async () => {
    const file = path.join(dir, 'c.db');
    const first = checkpointInBackground(db, file);
    const second = checkpointInBackground(db, file);
    expect(second).toBe(first);
    await first;
    await expect(checkpointInBackground(db, path.join(dir, 'missing', 'x.db'))).resolves.toBeUndefined();
    expect(await pragma('wal_autocheckpoint')).toEqual({ wal_autocheckpoint: 1000 });
  });
});
