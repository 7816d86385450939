import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialectOf } from './dialect.ts';
import { contains } from './list/search.ts';
import { migrateToLatest } from './migrate.ts';
import { pgSearchedTerm, searchIndexes, searchTableOf, trigramIndexOf, valueListOf, type SearchedTable } from './search-index.ts';
import { useTestDatabase } from '../test/use-test-database.ts';

describe('search indexes (contains filters)', () => {
  const t = useTestDatabase();

  it('exist for every searched column of db/search-index.ts', async () => {
    const { db } = t();
    await migrateToLatest(db);
    for (const [table, spec] of Object.entries(searchIndexes)) {
      // a column with a value list is searched there (the value table is a searched table of its own, checked too)
      const columns = spec.columns.filter((c: string) => !valueListOf(table as SearchedTable, c));
      if (dialectOf(db) === 'postgres') {
        const { rows } = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes where tablename = ${table}`.execute(db);
        for (const column of columns) {
          const index = rows.find((r) => r.indexname === trigramIndexOf(table, column));
          expect(index?.indexdef, `${table}.${column}`).toContain('gin_trgm_ops');
          // the index reads what contains() asks of it: the column's punctuation as letters where joinedWords says so
          expect(index?.indexdef.includes('translate('), `${table}.${column}`).toBe(pgSearchedTerm(table, column, '.').translated);
        }
      } else {
        const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where name = ${searchTableOf(table)}`.execute(db);
        for (const column of columns) expect(rows[0]?.sql, `${table}.${column}`).toContain(`"${column}"`);
      }
    }
  });

  it('find what the column contains, case-insensitively, % and _ literally, short texts too, and follow inserts, updates and deletes', async () => {
    const { db } = t();
    await migrateToLatest(db);
    await db.deleteFrom('sys_variable').execute(); // the variables a migration adds (the 退订 keywords) aside
    const now = Date.now();
    const variable = (varName: string, varLable: string) => ({ varName, varLable, varValue: '', deptId: null, addUser: '', editUser: '', addTime: now, editTime: now });
    await db.insertInto('sys_variable').values([
      variable('Alpha_Beta', '折扣100%'), variable('alphaXbeta', '折扣100元'), variable('gamma', '满减'),
    ]).execute();
    const find = async (column: 'varName' | 'varLable', text: string) =>
      (await db.selectFrom('sys_variable').select('varName').where(contains(db as never, 'sys_variable', column, text).condition).orderBy('varName').execute()).map((r) => r.varName);
    expect(await find('varName', 'ALPHA')).toEqual(['Alpha_Beta', 'alphaXbeta']);
    expect(await find('varName', 'a_b')).toEqual(['Alpha_Beta']); // _ is a character, not a wildcard
    expect(await find('varLable', '100%')).toEqual(['Alpha_Beta']); // % too
    expect(await find('varLable', '折扣')).toEqual(['Alpha_Beta', 'alphaXbeta']); // two characters: no trigram, still found
    expect(await find('varName', 'm')).toEqual(['gamma']);
    expect(await find('varName', 'a"b')).toEqual([]); // a quote is a character of the text, not FTS syntax
    await db.updateTable('sys_variable').set({ varName: 'delta' }).where('varName', '=', 'gamma').execute();
    expect(await find('varName', 'gamma')).toEqual([]);
    expect(await find('varName', 'elt')).toEqual(['delta']);
    await db.deleteFrom('sys_variable').where('varName', '=', 'alphaXbeta').execute();
    expect(await find('varName', 'alpha')).toEqual(['Alpha_Beta']);
    // a counter update (not a searched column) leaves the index alone and the row findable
    await db.updateTable('sys_variable').set({ varValue: 'x' }).where('varName', '=', 'delta').execute();
    expect(await find('varName', 'delta')).toEqual(['delta']);
  });

  it('search a column with a value list among its values: every row of each value found, the list following inserts and updates', async () => {
    const { db } = t();
    await migrateToLatest(db);
    const log = (userName: string, loginTime: number) => ({ userName, userId: null, deptId: null, ip: '10.0.0.1', userAgent: '', success: 1, message: '', loginTime });
    await db.insertInto('sys_login_log').values([log('WangFang', 1), log('wangfang7', 2), log('liwei', 3), log('WangFang', 4), log('a_b', 5), log('axb', 6)]).execute();
    const find = async (text: string) =>
      (await db.selectFrom('sys_login_log').select('loginTime').where(contains(db as never, 'sys_login_log', 'userName', text).condition).orderBy('loginTime').execute()).map((r) => Number(r.loginTime));
    expect(await find('wangfang')).toEqual([1, 2, 4]); // case-insensitively, every row of each name
    expect(await find('FANG7')).toEqual([2]);
    expect(await find('i')).toEqual([3]); // one character: the value table compared with like
    expect(await find('a_b')).toEqual([5]); // _ literally
    expect(await find('zhang')).toEqual([]);
    // the value table holds each name once, filled by the trigger (rows before the migration by the migration)
    const values = async () => (await db.selectFrom('sys_login_log_user_names').select('value').orderBy('value').execute()).map((r) => r.value);
    expect(await values()).toEqual(['WangFang', 'a_b', 'axb', 'liwei', 'wangfang7'].sort());
    await db.updateTable('sys_login_log').set({ userName: 'zhangsan' }).where('loginTime', '=', 3).execute();
    expect(await find('zhang')).toEqual([3]);
    expect(await find('liwei')).toEqual([]); // the value stays; no row has it
    await db.insertInto('sys_oper_log').values({ userId: null, userName: 'zhangsan', deptId: null, module: '用户管理', action: '新增', target: '', method: 'POST', url: '', ip: '', success: 1, message: '', costMs: 0, operTime: 7 }).execute();
    expect((await db.selectFrom('sys_oper_log').select('operTime').where(contains(db as never, 'sys_oper_log', 'userName', 'angsa').condition).execute()).map((r) => Number(r.operTime))).toEqual([7]);
  });

  it('refuse a column without an index', () => {
    const { db } = t();
    expect(() => contains(db as never, 'sys_variable', 'varValue' as never, 'x')).toThrow(/no search index/);
  });
});
