import { beforeAll } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { LIST_COUNT_BOUND, SEARCH_COUNT_STEP } from '@huiyun/contract';
import { dialectOf } from '../db/dialect.ts';
import { listPage } from '../db/list/paging.ts';
import type { SearchForm } from '../db/list/search-plan.ts';
import { contains } from '../db/list/search.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Database } from '../db/schema.ts';
import { useTestDatabase } from './use-test-database.ts';

// The list tests' data (db/list/*.test.ts): 20,000 login log rows whose ip holds the searched texts (the
// log's own search index), the same texts as 操作日志's user names (searched through their value list),
// and a reference for any page computed here in plain code.

export const ROWS = 20_000;
export const BASE = Date.UTC(2026, 0, 1);

/** Half the texts `zhang…` (common), every 70th `…Mid…` (≥ SEARCH_PROBE matches, 1.4% of rows), 5 `rare_x…`. */
function nameOf(i: number): string {
  if (i % 70 === 1) return `Wang.Mid${i}`;
  if (i % 4001 === 7) return `rare_x${i}`;
  return i % 2 === 0 ? `zhang${i}` : `li${i}`;
}
// times are a permutation of the ids (sort order ≠ key order), each shared by two rows (the tie-breaker decides)
export const timeOf = (i: number) => BASE + ((i * 7919) % (ROWS / 2)) * 1000;

export type Row = { infoId: number; ip: string; loginTime: number; success: number };
type Extra = { sort?: 'ip'; failedOnly?: boolean; searchPlan?: 'indexed' | 'scan' | 'stream' };

/** The fixture of a describe block: its database seeded before its tests, the statements it runs recorded while `recording`. */
export function useLoginLogList() {
  const f = {
    db: undefined as unknown as Kysely<Database>,
    all: [] as Row[],
    /** The statements run while `recording`, and the parameters each ran with last. */
    statements: [] as string[],
    parametersOf: new Map<string, readonly unknown[]>(),
    recording: false,
    read: (text: string, page: number, extra: Extra = {}) => readList(f, 'sys_login_log', text, page, extra),
    readNames: (text: string, page: number, extra: Extra = {}) => readList(f, 'sys_oper_log', text, page, extra),
    expected: (text: string, page: number, extra: { sort?: 'ip'; failedOnly?: boolean } = {}) => expectedPage(f.all, text, page, extra),
  };
  const t = useTestDatabase({ log: (event) => {
    if (f.recording && event.level === 'query') {
      f.statements.push(event.query.sql);
      f.parametersOf.set(event.query.sql, event.query.parameters);
    }
  } });
  beforeAll(async () => {
    const { db } = t();
    await migrateToLatest(db);
    const rows = Array.from({ length: ROWS }, (_, k) => {
      const i = k + 1;
      return { userName: '', userId: null, deptId: null, ip: nameOf(i), userAgent: '', success: i % 3 === 0 ? 0 : 1, message: '', loginTime: timeOf(i) };
    });
    for (let i = 0; i < rows.length; i += 1000) await db.insertInto('sys_login_log').values(rows.slice(i, i + 1000)).execute();
    const named = rows.map((r) => ({ userId: null, userName: r.ip, deptId: null, module: 'm', action: 'a', target: '', method: 'POST', url: '', ip: '', success: r.success, message: '', costMs: 0, operTime: r.loginTime }));
    for (let i = 0; i < named.length; i += 1000) await db.insertInto('sys_oper_log').values(named.slice(i, i + 1000)).execute();
    if (dialectOf(db) === 'postgres') await sql`analyze sys_login_log`.execute(db); // statistics, as autovacuum gathers them
    f.all = (await db.selectFrom('sys_login_log').select(['infoId', 'ip', 'loginTime', 'success']).execute()).map((r) => ({ ...r, loginTime: Number(r.loginTime) }));
    f.db = db;
  }, 60_000);
  return f;
}

/** A page of the log (or of 操作日志 by user name) searched for `text`, with the forms the plan read it with. */
async function readList(f: { db: Kysely<Database> }, table: 'sys_login_log' | 'sys_oper_log', text: string, page: number, extra: Extra) {
  const { db } = f;
  let forms: { page: SearchForm[]; count: SearchForm[] } | undefined;
  const paging = { page, limit: 10, sortField: extra.sort ?? '', sortOrder: extra.sort ? 'ascend' as const : '' as const };
  const planned = { searchPlan: extra.searchPlan, onSearchPlan: (seen: typeof forms) => { forms = seen; } };
  if (table === 'sys_login_log') {
    let filtered = db.selectFrom('sys_login_log');
    if (extra.failedOnly) filtered = filtered.where('success', '=', 0);
    const answer = await listPage(db, filtered, (qb) => qb.select(['infoId', 'ip']), paging,
      { sortColumns: { ip: 'ip' }, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId', ...planned, searches: [contains(db, 'sys_login_log', 'ip', text)] });
    return { rows: answer.rows.map((r) => r.infoId), total: answer.total, totalBounded: answer.totalBounded, forms };
  }
  let filtered = db.selectFrom('sys_oper_log');
  if (extra.failedOnly) filtered = filtered.where('success', '=', 0);
  const answer = await listPage(db, filtered, (qb) => qb.select(['operId', 'userName']), paging,
    { sortColumns: { ip: 'userName' }, defaultSort: ['operTime', 'desc'], tieBreaker: 'operId', ...planned, searches: [contains(db, 'sys_oper_log', 'userName', text)] });
  return { rows: answer.rows.map((r) => r.operId), total: answer.total, totalBounded: answer.totalBounded, forms };
}

/** The page the simple plan answers, with the list machinery's bounds (a searched count in steps of SEARCH_COUNT_STEP, no page past LIST_COUNT_BOUND). */
function expectedPage(all: Row[], text: string, page: number, extra: { sort?: 'ip'; failedOnly?: boolean }) {
  const matching = all.filter((r) => r.ip.toLowerCase().includes(text.toLowerCase()) && (!extra.failedOnly || r.success === 0));
  const sorted = extra.sort
    ? matching.sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : a.infoId - b.infoId))
    : matching.sort((a, b) => b.loginTime - a.loginTime || b.infoId - a.infoId);
  const offset = (page - 1) * 10;
  const bound = Math.min(LIST_COUNT_BOUND, SEARCH_COUNT_STEP * Math.max(1, Math.ceil((offset + 10) / SEARCH_COUNT_STEP)));
  const rows = offset > LIST_COUNT_BOUND ? [] : sorted.slice(offset, offset + 10).map((r) => r.infoId);
  return matching.length > bound ? { rows, total: bound + 1, totalBounded: true as const } : { rows, total: matching.length, totalBounded: undefined };
}
