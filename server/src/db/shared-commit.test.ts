import { sql } from 'kysely';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDbKind } from '../test/test-database.ts';
import { useTestDatabase } from '../test/use-test-database.ts';
import { migrateToLatest } from './migrate.ts';
import type { Queryable } from './schema.ts';
import { sharedCommitCountsOf, sharedTransaction, sharedWrite } from './shared-commit.ts';

const variable = (varName: string, varValue = 'v') => ({
  varLable: varName, varName, varValue, deptId: null, addUser: 'test', editUser: 'test', addTime: 1, editTime: 1,
});

describe('shared commits', () => {
  const database = useTestDatabase();
  beforeAll(async () => {
    await migrateToLatest(database().db);
  });
  beforeEach(async () => {
    await database().db.deleteFrom('sys_variable').where('addUser', '=', 'test').execute();
  });

  const stored = async () => (await database().db.selectFrom('sys_variable').select('varName').where('addUser', '=', 'test').orderBy('varName').execute()).map((r) => r.varName);
  const insert = (q: Queryable, name: string) => q.insertInto('sys_variable').values(variable(name)).returning('varName').executeTakeFirstOrThrow();

  it('runs each transaction asked for in one turn, each answering its own result; SQLite commits them once', async () => {
    const { db } = database();
    const before = { ...sharedCommitCountsOf(db) };
    const names = Array.from({ length: 20 }, (_, k) => `shared_${String(k).padStart(2, '0')}`);
    const answers = await Promise.all(names.map((name, k) => (k % 2
      ? sharedTransaction(db, async (trx) => (await insert(trx, name)).varName)
      : sharedWrite(db, async (q) => (await insert(q, name)).varName))));
    expect(answers).toEqual(names);
    expect(await stored()).toEqual(names);
    const counts = sharedCommitCountsOf(db);
    if (testDbKind() === 'sqlite') expect([counts.commits - before.commits, counts.works - before.works]).toEqual([1, 20]);
    else expect(counts).toEqual(before); // PostgreSQL: plain transactions and statements
  });

  it('rolls back only the transaction that threw: its caller gets the error, the others are stored', async () => {
    const { db } = database();
    await insert(db, 'kept_0');
    const outcomes = await Promise.allSettled([
      sharedTransaction(db, (trx) => insert(trx, 'kept_1')),
      sharedTransaction(db, async (trx) => {
        await insert(trx, 'undone_1');
        await insert(trx, 'undone_2');
        throw new Error('refused halfway');
      }),
      sharedTransaction(db, async (trx) => insert(trx, 'kept_0')), // unique varName: the database refuses it
      sharedWrite(db, (q) => insert(q, 'kept_2')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(((outcomes[1] as PromiseRejectedResult).reason as Error).message).toBe('refused halfway');
    expect(await stored()).toEqual(['kept_0', 'kept_1', 'kept_2']);
  });

  it('a transaction alone that throws is rolled back whole', async () => {
    const { db } = database();
    await expect(sharedTransaction(db, async (trx) => {
      await insert(trx, 'alone_1');
      throw new Error('no');
    })).rejects.toThrow('no');
    expect(await stored()).toEqual([]);
  });

  it.runIf(testDbKind() === 'sqlite')('answers nobody before the commit: a failed commit fails every transaction that shared it', async () => {
    const { db } = database();
    const role = await db.insertInto('sys_role').values({ systemNo: 'test', roleNo: 'shared_commit', roleName: '共享提交', isAdmin: 0, addTime: 1, editTime: 1 }).returning('roleId').executeTakeFirstOrThrow();
    const outcomes = await Promise.allSettled([
      sharedWrite(db, (q) => insert(q, 'lost_1')),
      sharedTransaction(db, async (trx) => {
        // a foreign key checked only at the commit (SQLite: deferred for this transaction), broken
        await sql`pragma defer_foreign_keys = on`.execute(trx);
        await trx.insertInto('sys_role_right').values({ roleId: role.roleId, moduleId: 987_654 }).execute();
        return 'done';
      }),
      sharedWrite(db, (q) => insert(q, 'lost_2')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(await stored()).toEqual([]);
    expect(await db.selectFrom('sys_role_right').selectAll().where('roleId', '=', role.roleId).execute()).toEqual([]);
    await db.deleteFrom('sys_role').where('roleId', '=', role.roleId).execute();
  });

  it('given a transaction, runs inside it (no waiting for a commit of its own)', async () => {
    const { db } = database();
    const names = await sharedTransaction(db, async (trx) => {
      const a = await sharedWrite(trx, (q) => insert(q, 'inner_1'));
      const b = await sharedTransaction(trx, (inner) => insert(inner, 'inner_2'));
      return [a.varName, b.varName];
    });
    expect(names).toEqual(['inner_1', 'inner_2']);
    expect(await stored()).toEqual(['inner_1', 'inner_2']);
  });

  it('keeps going after a batch: works asked for while one commits share the next', async () => {
    const { db } = database();
    const first = Promise.all([1, 2, 3].map((k) => sharedWrite(db, (q) => insert(q, `wave1_${k}`))));
    // asked for while the first wave runs
    await new Promise((resolve) => setImmediate(resolve));
    const second = Promise.all([1, 2, 3].map((k) => sharedWrite(db, (q) => insert(q, `wave2_${k}`))));
    await Promise.all([first, second]);
    expect(await stored()).toEqual(['wave1_1', 'wave1_2', 'wave1_3', 'wave2_1', 'wave2_2', 'wave2_3']);
  });
});
