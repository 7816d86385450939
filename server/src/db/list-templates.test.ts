import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../test/use-test-database.ts';
import { listTemplateCountsOf } from './list/memory.ts';
import { listPage } from './list/paging.ts';
import { contains } from './list/search.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

// listPage's statements from templates (db/list-templates.ts): the same rows, totals and cursors as
// statements built per request, for every shape a list takes; under Vitest every filled statement is
// also compared with one built afresh (CHECK_TEMPLATES), so a wrong template fails here and in every
// list's own tests.

type Vars = ReturnType<typeof variables>;
const variables = (db: Kysely<Database>) => db.selectFrom('sys_variable as v');
const columns = (qb: Vars) => qb.select(['v.varId', 'v.varName', 'v.varValue']);
const options = { sortColumns: { varName: 'v.varName' }, defaultSort: ['v.varId', 'desc'] as [string, 'desc'], tieBreaker: 'v.varId' };

describe('list statements from templates', () => {
  const database = useTestDatabase();
  beforeAll(async () => {
    await migrateToLatest(database().db);
  });

  const seedVariables = async (db: Kysely<Database>) => {
    await db.deleteFrom('sys_variable').execute();
    await db.insertInto('sys_variable').values(Array.from({ length: 45 }, (_, k) => ({
      varLable: `变量${k}`, varName: `var${String(k).padStart(2, '0')}`, varValue: k % 3 === 0 ? 'red' : 'blue', deptId: null,
      addUser: 'admin', editUser: 'admin', addTime: 1_700_000_000_000 + k, editTime: 1_700_000_000_000 + k,
    }))).execute();
  };

  it('fill a known shape with each request\'s values: the rows, totals and cursors of statements built per request', async () => {
    const { db } = database();
    await seedVariables(db);
    const counts = listTemplateCountsOf(db);
    const before = { ...counts };
    const read = (value: string | undefined, page: number, after?: string, sort?: { sortField: string; sortOrder: 'ascend' | 'descend' }) => listPage(
      db, value ? variables(db).where('v.varValue', '=', value) : variables(db), columns,
      { page, limit: 10, sortField: sort?.sortField ?? '', sortOrder: sort?.sortOrder ?? '', after }, options,
    );
    const built = [await read('red', 1)]; // the column function seen for the first time: built per request
    expect(counts.made).toBe(before.made);
    built.push(await read('blue', 1)); // seen before: its shapes are templated from now on
    expect(counts.made).toBeGreaterThan(before.made);
    const filled = [await read('red', 1), await read('blue', 1)];
    expect(filled).toEqual(built);
    expect(filled[0]!.total).toBe(15);
    expect(filled[1]!.total).toBe(30);
    expect(counts.made).toBeGreaterThan(before.made);
    // deeper pages by offset and by cursor, another sort, and no filter: each a shape of its own, filled again
    for (const value of ['blue', 'red', undefined]) {
      const page1 = await read(value, 1);
      const page2 = await read(value, 2, page1.next);
      const page2ByOffset = await read(value, 2);
      expect(page2.rows).toEqual(page2ByOffset.rows);
      expect(page2.rows.map((r) => r.varId)).not.toContain(page1.rows[0]!.varId);
      const sorted = await read(value, 2, undefined, { sortField: 'varName', sortOrder: 'ascend' });
      expect(sorted.rows.map((r) => r.varName)).toEqual([...sorted.rows.map((r) => r.varName)].sort());
    }
    const filledBefore = counts.filled;
    await read('blue', 3);
    await read('blue', 3);
    expect(counts.filled).toBeGreaterThan(filledBefore);
    expect(counts.refused).toBe(before.refused);
  });

  it('give a count read in the page\'s statement the bound of its own page (a short contains filter counts in steps)', async () => {
    const { db } = database();
    await seedVariables(db);
    const oneOf = (page: number) => listPage(
      db, variables(db), columns, // var01, var10 … var19, var21, var31, var41: 14 rows
      { page, limit: 7, sortField: '', sortOrder: '' }, { ...options, searchCountStep: 7, searches: [contains(db, 'sys_variable', 'v.varName', '1')] },
    );
    // pages 2 and 3 count to 14 and 21 (exact: 14), then count in their page's statement, each to its own bound
    for (let k = 0; k < 3; k++) {
      expect((await oneOf(2)).total).toBe(14);
      expect((await oneOf(3)).total).toBe(14);
    }
  });

  it('fill the statements of a searched list in each form its plan reads a search, with the rows of statements built per request', async () => {
    const { db } = database();
    await seedVariables(db);
    const counts = listTemplateCountsOf(db);
    const searched = (text: string, page: number, searchPlan?: 'indexed' | 'scan' | 'stream') => listPage(
      db, variables(db), columns,
      { page, limit: 4, sortField: '', sortOrder: '' }, { ...options, searchPlan, searches: [contains(db, 'sys_variable', 'v.varName', text)] },
    );
    for (const plan of [undefined, 'indexed', 'scan', 'stream'] as const) {
      const built = [await searched('var1', 1, plan), await searched('var2', 2, plan)];
      const filledBefore = counts.filled;
      const refusedBefore = counts.refused;
      // the same shapes with other terms: filled from their templates (the terms are values, not shape)
      const again = [await searched('var1', 1, plan), await searched('var2', 2, plan), await searched('var3', 1, plan), await searched('var4', 1, plan)];
      expect(again.slice(0, 2)).toEqual(built);
      expect(again.map((listed) => listed.total)).toEqual([10, 10, 10, 5]);
      expect(again[2]!.rows.map((r) => r.varName)).toEqual(['var39', 'var38', 'var37', 'var36']);
      // each request's page and count, a streamed count too (its FTS5 question a value of the template's own)
      expect(counts.filled - filledBefore, `plan ${plan ?? 'chosen'}`).toBe(2 * again.length);
      expect(counts.refused).toBe(refusedBefore);
    }
  });

  it('answer rows of their columns only, as plain objects, also a column named __proto__', async () => {
    const { db } = database();
    await seedVariables(db);
    const paging = { page: 1, limit: 3, sortField: '', sortOrder: '' as const };
    const listed = await listPage(db, variables(db), columns, paging, options);
    expect(listed.rows.map((row) => Object.keys(row))).toEqual(Array(3).fill(['varId', 'varName', 'varValue']));
    expect(Object.getPrototypeOf(listed.rows[0])).toBe(Object.prototype);
    const odd = await listPage(db, variables(db), (qb) => qb.select(['v.varId', 'v.varName as __proto__']), paging, options);
    expect(Object.hasOwn(odd.rows[0]!, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(odd.rows[0])).toBe(Object.prototype);
    expect(odd.rows.map((row) => [row.varId, (row as Record<string, unknown>)['__proto__']])).toEqual(listed.rows.map((row) => [row.varId, row.varName]));
    expect(JSON.stringify(odd.rows[0])).toBe(`{"varId":${listed.rows[0]!.varId},"__proto__":"${listed.rows[0]!.varName}"}`);
  });

  it('build per request a list whose column function is made anew on each call', async () => {
    const { db } = database();
    await seedVariables(db);
    const counts = listTemplateCountsOf(db);
    const before = { ...counts };
    for (let k = 0; k < 3; k++) await listPage(db, variables(db), (qb) => qb.select(['v.varId']), { page: 1, limit: 10, sortField: '', sortOrder: '' }, options);
    expect(counts).toEqual(before);
  });

  it('refuse a shape whose statement lost a filter value\'s node, and catch a column function that reads a changing value', async () => {
    const { db } = database();
    await seedVariables(db);
    const counts = listTemplateCountsOf(db);
    // A filter whose value is copied into a new node (here by hand) cannot be followed: built per request, still right.
    const copying = (qb: Vars) => qb.clearWhere().where(sql<boolean>`${sql.ref('v.varValue')} = ${'green'}`).select(['v.varId']);
    const refusedBefore = counts.refused;
    for (let k = 0; k < 2; k++) {
      const listed = await listPage(db, variables(db).where('v.varValue', '=', 'green'), copying, { page: 1, limit: 10, sortField: '', sortOrder: '' }, options);
      expect(listed.total).toBe(0);
    }
    expect(counts.refused).toBeGreaterThan(refusedBefore);
    // A column function that is one object but reads a value that changes: the check of every filled statement throws.
    let label = 'a';
    const changing = (qb: Vars) => qb.select(['v.varId', sql<string>`${label}`.as('label')]);
    const list = () => listPage(db, variables(db), changing, { page: 1, limit: 10, sortField: '', sortOrder: '' }, options);
    await list();
    await list();
    label = 'b';
    await expect(list()).rejects.toThrow(/list template differs/);
  });
});
