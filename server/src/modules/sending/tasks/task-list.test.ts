import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RoleId, taskListQuery } from '@huiyun/contract';
import { migrateToLatest } from '../../../db/migrate.ts';
import { seedReferenceData } from '../../../db/seed.ts';
import type { Access } from '../../../http/caller.ts';
import { TASK_DEFAULTS } from '../../../test/rows.ts';
import { useTestDatabase } from '../../../test/use-test-database.ts';
import { createAccount } from '../../system/accounts/index.ts';
import { listTasks } from './queries.ts';

// 任务列表 at scale: a page is read in one statement — the creator's name and each row's
// machineCodeList come with the page's rows (docs/performance.md "How a list is made fast", rule 1),
// not from a second statement over the page's task ids. The names must be exactly the ones that
// statement read: every device of the row's task, in machineCode order, [] for a task with none.

const statements: string[] = [];
let recording = false;

describe('任务列表: one statement a page, the right devices on each row', () => {
  const t = useTestDatabase({ log: (event) => { if (recording && event.level === 'query') statements.push(event.query.sql); } });
  let owner: Access;
  let other: Access;
  /** taskId → the machine codes given to it, in the order they were inserted (not sorted). */
  const given = new Map<number, string[]>();

  beforeAll(async () => {
    const { db } = t();
    await migrateToLatest(db);
    const { demoDeptId } = await seedReferenceData(db);
    const account = (userName: string) => createAccount(db, {
      userName, userRealName: userName, password: 'User@12345', userSex: '男', isLock: 'N', deptId: demoDeptId, roleId: RoleId.ordinaryUser, addUser: 'test', now: Date.now(),
    });
    const access = (userId: number, userName: string): Access => ({
      userId, userName, userRealName: userName, roleId: RoleId.ordinaryUser, roleName: '', isAdmin: false, isSuperAdmin: false, isLocked: false,
      deptId: demoDeptId, deptName: '', permissions: new Set(), menus: [], deptScope: [demoDeptId],
    });
    owner = access(await account('tl_owner'), 'tl_owner');
    other = access(await account('tl_other'), 'tl_other');
    const now = Date.now();
    // 15 tasks of the owner: 0, 1, 2, 3 or 5 devices each, codes of mixed case, digits and widths,
    // inserted in no order; one task of another user sharing a code.
    const codeSets: string[][] = [[], ['DEV-B'], ['dev-a', 'DEV-A', 'DEV-10', 'DEV-9', 'M_1'], ['Z9', 'A1'], ['终端2', '终端1', 'X']];
    for (let i = 0; i < 15; i++) {
      const row = await db.insertInto('sync_task')
        .values({ ...TASK_DEFAULTS, taskStatus: 0, taskName: `清单任务${i}`, userId: owner.userId, deptId: demoDeptId, addTime: now + i, editTime: now + i })
        .returning('taskId').executeTakeFirstOrThrow();
      const codes = codeSets[i % codeSets.length]!;
      given.set(row.taskId, codes);
      for (const machineCode of codes) await db.insertInto('sync_task_device').values({ taskId: row.taskId, machineCode }).execute();
    }
    const foreign = await db.insertInto('sync_task')
      .values({ ...TASK_DEFAULTS, taskStatus: 0, taskName: '别人的任务', userId: other.userId, deptId: demoDeptId, addTime: now, editTime: now })
      .returning('taskId').executeTakeFirstOrThrow();
    await db.insertInto('sync_task_device').values([{ taskId: foreign.taskId, machineCode: 'DEV-B' }, { taskId: foreign.taskId, machineCode: 'OTHER' }]).execute();
  });

  beforeEach(() => {
    statements.length = 0;
  });

  const list = async (caller: Access, body: Record<string, unknown>) => {
    recording = true;
    try {
      return await listTasks(t().db, caller, taskListQuery.parse(body), Date.now());
    } finally {
      recording = false;
    }
  };

  /** Each task's devices as the list read them before (their own statement, `order by machineCode`): the reference. */
  const reference = async (taskId: number) =>
    (await t().db.selectFrom('sync_task_device').select('machineCode').where('taskId', '=', taskId).orderBy('machineCode').execute()).map((r) => r.machineCode);

  it('reads page 1 in one statement, and counts a full page with one more', async () => {
    const full = await list(owner, { pageNum: 1, pageSize: 10 });
    expect(full.rows).toHaveLength(10);
    expect(full.total).toBe(15);
    // the page (its names and devices included) and the count of a full page
    expect(statements).toHaveLength(2);
    expect(statements[0]).toContain('sync_task_device');
    // the page's keys first, then names and devices for those 10 rows: SQLite evaluated them for every
    // row it sorted (a company administrator's 10,000 tasks in scope: 6 ms against 0.04 ms)
    expect(statements[0]).toMatch(/in \(select "sync_task"\."taskId" as "pageKey"/);
    expect(statements[1]).toMatch(/count\(\*\)/);

    statements.length = 0;
    const whole = await list(owner, { pageNum: 1, pageSize: 20 });
    expect(whole.rows).toHaveLength(15);
    expect(statements).toHaveLength(1); // not full: no count
  });

  it('reads a page past the first (keys first, then its rows) in one statement', async () => {
    const second = await list(owner, { pageNum: 2, pageSize: 10 });
    expect(second.rows).toHaveLength(5);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('sync_task_device');
  });

  it('reads a contains filter with the page only, after its probe on SQLite (a rare term, a page not full)', async () => {
    await list(owner, { pageNum: 1, pageSize: 10, taskName: '清单任务1' });
    statements.length = 0; // SQLite reads how common each trigram of a term is once a minute (db/list/trigrams.ts withoutDenseTrigrams): the repeat
    const found = await list(owner, { pageNum: 1, pageSize: 10, taskName: '清单任务1' }); // 清单任务1, 10–14
    expect(found.rows.map((r) => r.taskName).sort()).toEqual(['清单任务1', '清单任务10', '清单任务11', '清单任务12', '清单任务13', '清单任务14']);
    expect(statements).toHaveLength(process.env.TEST_DB === 'postgres' ? 1 : 2); // PostgreSQL: the page alone, pg_trgm and the planner
  });

  it('gives each row exactly its own devices, in machineCode order, [] for none', async () => {
    const { rows } = await list(owner, { pageNum: 1, pageSize: 20 });
    expect(rows.map((r) => r.taskId)).toEqual([...given.keys()].reverse());
    for (const row of rows) {
      expect(row.machineCodeList).toEqual(await reference(row.taskId));
      expect([...row.machineCodeList].sort()).toEqual([...given.get(row.taskId)!].sort());
    }
    expect(rows.filter((r) => r.machineCodeList.length === 0)).toHaveLength(3);
    expect(rows.some((r) => r.machineCodeList.length === 5)).toBe(true);
    for (const row of rows) for (const code of row.machineCodeList) expect(typeof code).toBe('string');
    // deep pages read the same devices as page 1 does for the same rows
    const page2 = await list(owner, { pageNum: 2, pageSize: 10 });
    for (const row of page2.rows) expect(row.machineCodeList).toEqual(await reference(row.taskId));
    // another user's task sharing a code keeps its own list
    const theirs = await list(other, { pageNum: 1, pageSize: 10 });
    expect(theirs.rows.map((r) => r.machineCodeList)).toEqual([['DEV-B', 'OTHER']]);
  });
});
