import { beforeAll, describe, expect, it, vi } from 'vitest';
import { LIST_COUNT_BOUND, SEARCH_COUNT_STEP } from '@huiyun/contract';
import { dialectOf } from './dialect.ts';
import { sql, type Kysely as Kysely } from 'kysely';
import { countBoundOf } from './list/counting.ts';
import { COUNT_MEMORY_MS } from './list/memory.ts';
import { listPage } from './list/paging.ts';
import { chooseSearchPlan, type SearchForm } from './list/search-plan.ts';
import { contains, SEARCH_PROBE } from './list/search.ts';
import { ftsTrigramRows, pgTrigramRows, separateTrigrams, withoutDenseTrigrams } from './list/trigrams.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';
import { useTestDatabase } from '../test/use-test-database.ts';

// The adaptive plan of a contains filter (SQLite: the FTS5 matches as a key list or an IN list, or a
// walk of the sort index with `like`, the count streamed or scanned; PostgreSQL: a rare term's key list
// or `like`) and the two-step read of deep pages must answer exactly what the
// simple plan answers: the same rows, in the same order, with the same total — for rare, common and
// 1–2 character terms, on both sides of each switch point. The reference is computed here, in plain code.
// A contains filter's count stops at a step of SEARCH_COUNT_STEP (共 1,000+ 条): the reference too.

const ROWS = 20_000;
const BASE = Date.UTC(2026, 0, 1);

/** 20,000 log rows (登录日志's ip holds the texts: its search index is the log's own): half of them `zhang…` (common), every 70th `…Mid…` (≥ SEARCH_PROBE matches, 1.4% of rows), 5 `rare_x…`. */
function nameOf(i: number): string {
  if (i % 70 === 1) return `Wang.Mid${i}`;
  if (i % 4001 === 7) return `rare_x${i}`;
  return i % 2 === 0 ? `zhang${i}` : `li${i}`;
}
// times are a permutation of the ids (sort order ≠ key order), each shared by two rows (the tie-breaker decides)
const timeOf = (i: number) => BASE + ((i * 7919) % (ROWS / 2)) * 1000;

class Rollback extends Error {}

type Row = { infoId: number; ip: string; loginTime: number; success: number };

const statements: string[] = [];
let recording = false;
/** The parameters a recorded statement ran with last, by its text. */
const parametersOf = new Map<string, readonly unknown[]>();

describe('list pages with contains filters: adaptive plan = simple plan', () => {
  const t = useTestDatabase({ log: (event) => { if (recording && event.level === 'query') { statements.push(event.query.sql); parametersOf.set(event.query.sql, event.query.parameters); } } });
  let all: Row[] = [];
  let db: Kysely<Database>;
  let forms: { page: SearchForm[]; count: SearchForm[] } | undefined;

  beforeAll(async () => {
    await migrateToLatest(t().db);
    const rows = Array.from({ length: ROWS }, (_, k) => {
      const i = k + 1;
      return { userName: '', userId: null, deptId: null, ip: nameOf(i), userAgent: '', success: i % 3 === 0 ? 0 : 1, message: '', loginTime: timeOf(i) };
    });
    for (let i = 0; i < rows.length; i += 1000) await t().db.insertInto('sys_login_log').values(rows.slice(i, i + 1000)).execute();
    // the same texts as 操作日志's user names, searched through their value list (search-index.ts valueLists): same keys, same times
    const named = rows.map((r) => ({ userId: null, userName: r.ip, deptId: null, module: 'm', action: 'a', target: '', method: 'POST', url: '', ip: '', success: r.success, message: '', costMs: 0, operTime: r.loginTime }));
    for (let i = 0; i < named.length; i += 1000) await t().db.insertInto('sys_oper_log').values(named.slice(i, i + 1000)).execute();
    // PostgreSQL: statistics, as autovacuum gathers them: the narrowing of a term reads them (list-query.ts pgTrigramRows)
    if (dialectOf(t().db) === 'postgres') await sql`analyze sys_login_log`.execute(t().db);
    all = await t().db.selectFrom('sys_login_log').select(['infoId', 'ip', 'loginTime', 'success']).execute();
    all = all.map((r) => ({ ...r, loginTime: Number(r.loginTime) }));
    db = t().db;
  }, 60_000);

  const read = async (text: string, page: number, extra: { sort?: 'ip'; failedOnly?: boolean; searchPlan?: 'indexed' | 'scan' | 'stream' } = {}) => {
    let filtered = db.selectFrom('sys_login_log').where(contains(db, 'sys_login_log', 'ip', text));
    if (extra.failedOnly) filtered = filtered.where('success', '=', 0);
    forms = undefined;
    const answer = await listPage(db, filtered, (qb) => qb.select(['infoId', 'ip']),
      { page, limit: 10, sortField: extra.sort ?? '', sortOrder: extra.sort ? 'ascend' : '' },
      { sortColumns: { ip: 'ip' }, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId', searchPlan: extra.searchPlan, onSearchPlan: (seen) => { forms = seen; } });
    return { rows: answer.rows.map((r) => r.infoId), total: answer.total, totalBounded: answer.totalBounded, forms };
  };
  const expected = (text: string, page: number, extra: { sort?: 'ip'; failedOnly?: boolean } = {}) => {
    const matching = all.filter((r) => r.ip.toLowerCase().includes(text.toLowerCase()) && (!extra.failedOnly || r.success === 0));
    const sorted = extra.sort
      ? matching.sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : a.infoId - b.infoId))
      : matching.sort((a, b) => b.loginTime - a.loginTime || b.infoId - a.infoId);
    // the list machinery's bounds: a searched list counts to the step of SEARCH_COUNT_STEP that holds
    // the page (共 1,000+ 条), at most LIST_COUNT_BOUND; and no page read that starts past LIST_COUNT_BOUND
    const offset = (page - 1) * 10;
    const bound = Math.min(LIST_COUNT_BOUND, SEARCH_COUNT_STEP * Math.max(1, Math.ceil((offset + 10) / SEARCH_COUNT_STEP)));
    const rows = offset > LIST_COUNT_BOUND ? [] : sorted.slice(offset, offset + 10).map((r) => r.infoId);
    return matching.length > bound ? { rows, total: bound + 1, totalBounded: true as const } : { rows, total: matching.length, totalBounded: undefined };
  };

  // gxmid: PostgreSQL's index reads the ip's dots as x (search-index.ts joinedWords): found there, it must be refused by the check against the ip
  const terms = ['zhang', 'ZHANG1', 'mid', 'wang.mid7', 'gxmid', 'rare_x', 'rare%x', 'zh', 'g', '_', 'nobody-has-this'];
  it.each(terms)('answer the rows, order and total of the simple plan for %j, every page and sort', async (text) => {
    const total = expected(text, 1).total;
    const lastPage = Math.max(1, Math.ceil(total / 10));
    for (const page of [...new Set([1, 2, 3, Math.ceil(lastPage / 2), lastPage, lastPage + 1])]) {
      for (const extra of [{}, { sort: 'ip' as const }, { failedOnly: true }]) {
        const want = expected(text, page, extra);
        const got = await read(text, page, extra);
        expect({ rows: got.rows, total: got.total, totalBounded: got.totalBounded }, `${text} page ${page} ${JSON.stringify(extra)}`).toEqual(want);
        for (const searchPlan of ['indexed', 'scan', 'stream'] as const) {
          const forced = await read(text, page, { ...extra, searchPlan });
          expect({ rows: forced.rows, total: forced.total, totalBounded: forced.totalBounded }, `${text} page ${page} ${JSON.stringify(extra)} ${searchPlan}`).toEqual(want);
        }
      }
    }
  }, 60_000);

  const readNames = async (text: string, page: number, extra: { sort?: 'ip'; failedOnly?: boolean; searchPlan?: 'indexed' | 'scan' | 'stream' } = {}) => {
    let filtered = db.selectFrom('sys_oper_log').where(contains(db, 'sys_oper_log', 'userName', text));
    if (extra.failedOnly) filtered = filtered.where('success', '=', 0);
    forms = undefined;
    const answer = await listPage(db, filtered, (qb) => qb.select(['operId', 'userName']),
      { page, limit: 10, sortField: extra.sort ?? '', sortOrder: extra.sort ? 'ascend' : '' },
      { sortColumns: { ip: 'userName' }, defaultSort: ['operTime', 'desc'], tieBreaker: 'operId', searchPlan: extra.searchPlan, onSearchPlan: (seen) => { forms = seen; } });
    return { rows: answer.rows.map((r) => r.operId), total: answer.total, totalBounded: answer.totalBounded, forms };
  };

  it.each(terms)('answer the rows, order and total of the simple plan for %j searched through a value list, every page and sort', async (text) => {
    const lastPage = Math.max(1, Math.ceil(expected(text, 1).total / 10));
    for (const page of [...new Set([1, 2, Math.ceil(lastPage / 2), lastPage, lastPage + 1])]) {
      for (const extra of [{}, { sort: 'ip' as const }, { failedOnly: true }]) {
        const got = await readNames(text, page, { ...extra, searchPlan: 'stream' }); // a forced plan is no plan for a value list
        expect({ rows: got.rows, total: got.total, totalBounded: got.totalBounded }, `${text} page ${page} ${JSON.stringify(extra)}`).toEqual(expected(text, page, extra));
      }
    }
  }, 60_000);

  it('read a common term on SQLite with its page and its count: that it is common and the table\'s key span are remembered', async () => {
    if (dialectOf(db) === 'postgres') return; // PostgreSQL reads a common term with like: no span
    await read('mid', 1);
    statements.length = 0;
    recording = true;
    const got = await read('mid', 1).finally(() => { recording = false; });
    expect(got.forms).toEqual({ page: ['scan'], count: ['stream'] });
    expect({ rows: got.rows, total: got.total, totalBounded: got.totalBounded }).toEqual(expected('mid', 1));
    expect(statements).toHaveLength(2);
    expect(statements.some((text) => /min\(|select rowid as k/.test(text))).toBe(false);
  });

  it('count in the page\'s statement a list whose count was exact lately: one statement, the total live; not once it reaches its bound', async () => {
    const failed = all.filter((r) => r.success === 0);
    expect(failed.length).toBeLessThan(LIST_COUNT_BOUND);
    const page = async (n: number, where: 'failed' | 'all') => {
      const filtered = where === 'failed' ? db.selectFrom('sys_login_log').where('success', '=', 0) : db.selectFrom('sys_login_log');
      statements.length = 0;
      recording = true;
      const answer = await listPage(db, filtered, (qb) => qb.select('infoId'), { page: n, limit: 10, sortField: '', sortOrder: '' },
        { sortColumns: {}, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId' }).finally(() => { recording = false; });
      return { total: answer.total, totalBounded: answer.totalBounded, rows: answer.rows.length, statements: statements.length };
    };
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      vi.advanceTimersByTime(COUNT_MEMORY_MS); // what earlier tests taught the memory is gone
      expect(await page(3, 'failed')).toEqual({ total: failed.length, totalBounded: undefined, rows: 10, statements: 2 }); // page, then count
      expect(await page(3, 'failed')).toEqual({ total: failed.length, totalBounded: undefined, rows: 10, statements: 1 }); // counted in the page
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sys_login_log').where('infoId', '=', failed[0]!.infoId).execute();
        const live = await listPage(trx, trx.selectFrom('sys_login_log').where('success', '=', 0), (qb) => qb.select('infoId'), { page: 3, limit: 10, sortField: '', sortOrder: '' },
          { sortColumns: {}, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId' });
        expect(live.total).toBe(failed.length - 1); // an exact total is never remembered, only that it was exact
        throw new Rollback();
      }).catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
      // a count past its bound: counted once, then remembered as bounded (no count at all) — never counted in the page again
      expect(await page(3, 'all')).toEqual({ total: LIST_COUNT_BOUND + 1, totalBounded: true, rows: 10, statements: 2 });
      expect(await page(3, 'all')).toEqual({ total: LIST_COUNT_BOUND + 1, totalBounded: true, rows: 10, statements: 1 });
      vi.advanceTimersByTime(COUNT_MEMORY_MS);
      expect(await page(3, 'failed')).toMatchObject({ total: failed.length, statements: 2 }); // the hint expires with the memory
    } finally {
      vi.useRealTimers();
    }
  });

  it('say a count carried by the page past its bound as bound + 1, as a bounded count says it', async () => {
    const step = 100;
    const failedMid = all.filter((r) => r.ip.toLowerCase().includes('mid') && r.success === 0);
    expect(failedMid.length).toBeGreaterThan(10);
    expect(failedMid.length).toBeLessThanOrEqual(step);
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      vi.advanceTimersByTime(COUNT_MEMORY_MS); // what earlier tests taught the memory is gone
      await db.transaction().execute(async (trx) => {
        const count = async () => {
          const filtered = trx.selectFrom('sys_login_log').where(contains(trx, 'sys_login_log', 'ip', 'mid')).where('success', '=', 0);
          statements.length = 0;
          recording = true;
          const { total, totalBounded } = await listPage(trx, filtered, (qb) => qb.select('infoId'), { page: 1, limit: 10, sortField: '', sortOrder: '' },
            { sortColumns: {}, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId', searchCountStep: step, searchPlan: 'scan' }).finally(() => { recording = false; });
          return { total, totalBounded, countedAlone: statements.filter((text) => text.startsWith('select count(*)')).length };
        };
        expect(await count()).toEqual({ total: failedMid.length, totalBounded: undefined, countedAlone: 1 });
        expect(await count()).toEqual({ total: failedMid.length, totalBounded: undefined, countedAlone: 0 }); // counted in the page
        // rows come meanwhile, past the step: the page's count finds them all, the answer says 共 100+ 条
        await trx.insertInto('sys_login_log').values(Array.from({ length: step + 5 - failedMid.length }, (_, k) => ({
          userName: '', userId: null, deptId: null, ip: `mid-late-${k}`, userAgent: '', success: 0, message: '', loginTime: timeOf(1),
        }))).execute();
        expect(await count()).toEqual({ total: step + 1, totalBounded: true, countedAlone: 0 });
        expect(await count()).toEqual({ total: step + 1, totalBounded: true, countedAlone: 0 }); // remembered as bounded: not counted at all
        throw new Rollback();
      }).catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('remember that a term is common, never a rare term\'s matches: each reads the rows as they are now', async () => {
    const readIn = async (q: Kysely<Database>, text: string) => {
      const answer = await listPage(q, q.selectFrom('sys_login_log').where(contains(q, 'sys_login_log', 'ip', text)), (qb) => qb.select(['infoId']),
        { page: 1, limit: 10, sortField: '', sortOrder: '' }, { sortColumns: {}, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId' });
      return { rows: answer.rows.map((r) => r.infoId), total: answer.total };
    };
    const newest = (rows: Row[]) => [...rows].sort((a, b) => b.loginTime - a.loginTime || b.infoId - a.infoId).slice(0, 10).map((r) => r.infoId);
    await readIn(db, 'mid'); // common (286 matches): remembered so
    const keep = all.filter((r) => r.ip.toLowerCase().includes('mid')).slice(0, 3);
    const rare = all.filter((r) => r.ip.startsWith('rare_x'));
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_login_log').where('ip', 'like', '%Mid%').where('infoId', 'not in', keep.map((r) => r.infoId)).execute();
      expect(await readIn(trx, 'mid')).toEqual({ rows: newest(keep), total: 3 }); // read as a common term still: the same rows
      const added = await trx.insertInto('sys_login_log').values({ userName: '', userId: null, deptId: null, ip: 'rare_xnew', userAgent: '', success: 1, message: '', loginTime: BASE + ROWS * 1000 })
        .returning('infoId').executeTakeFirstOrThrow();
      expect(await readIn(trx, 'rare_x')).toEqual({ rows: [added.infoId, ...newest(rare)], total: rare.length + 1 }); // its probe read again
      throw new Rollback();
    }).catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  });

  it('count a rare term (its matches a key list) in the statement of its full page: the probe and the page, nothing else', async () => {
    const text = 'wang.mid7';
    const all = expected(text, 1).total;
    expect(all).toBeGreaterThan(10); // a full page 1: a count is needed
    await read(text, 1); // SQLite counts the term's trigrams once a minute: a repeat
    statements.length = 0;
    recording = true;
    const got = await read(text, 1).finally(() => { recording = false; });
    expect(got.forms).toEqual({ page: ['keys'], count: ['keys'] });
    expect({ rows: got.rows, total: got.total, totalBounded: got.totalBounded }).toEqual(expected(text, 1));
    expect(statements).toHaveLength(2);
    expect(statements[1]).not.toMatch(/pageKey/); // a list of its own columns reads page 1 directly, not keys first
    // with another filter too, and on a page past the last (no rows: counted on its own)
    expect(await read(text, 1, { failedOnly: true })).toMatchObject(expected(text, 1, { failedOnly: true }));
    const past = Math.ceil(all / 10) + 1;
    expect(await read(text, past)).toMatchObject(expected(text, past));
  });

  it('read a value list search as equality on the values found, or as the value table when hundreds of values match', async () => {
    const plan = async (text: string) => (await readNames(text, 1)).forms;
    expect(await plan('rare_x')).toEqual({ page: ['keys'], count: ['keys'] }); // 5 values
    expect(await plan('nobody-has-this')).toEqual({ page: ['keys'], count: ['keys'] }); // none: no rows, no error
    expect(await plan('zhang')).toEqual({ page: ['indexed'], count: ['indexed'] }); // 10,000 values
    expect(await plan('zh')).toEqual({ page: ['indexed'], count: ['indexed'] }); // 1–2 characters: the value table by like
    expect(await plan('_')).toEqual({ page: ['keys'], count: ['keys'] });
  });

  it('read a page from the cursor of the page before it (keyset) exactly as by its offset; ignore a cursor of another page, sort or form', async () => {
    const pageOf = async (page: number, extra: { sort?: 'ip'; failedOnly?: boolean; after?: string } = {}) => {
      let filtered = db.selectFrom('sys_login_log').where('infoId', '>', 0);
      if (extra.failedOnly) filtered = filtered.where('success', '=', 0);
      return listPage(db, filtered, (qb) => qb.select(['infoId', 'ip']),
        { page, limit: 10, sortField: extra.sort ?? '', sortOrder: extra.sort ? 'ascend' : '', after: extra.after },
        { sortColumns: { ip: 'ip' }, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId' });
    };
    // every time is shared by two rows: the key decides between them, across page ends too
    for (const extra of [{}, { sort: 'ip' as const }, { failedOnly: true }]) {
      let answer = await pageOf(1, extra);
      for (let page = 2; page <= 30; page++) {
        expect(answer.next, `page ${page - 1} ${JSON.stringify(extra)}`).toBeDefined();
        const byCursor = await pageOf(page, { ...extra, after: answer.next });
        const byOffset = await pageOf(page, extra);
        expect(byCursor.rows.map((r) => r.infoId), `page ${page} ${JSON.stringify(extra)}`).toEqual(byOffset.rows.map((r) => r.infoId));
        expect(byCursor.rows[0]).toEqual({ infoId: byOffset.rows[0]!.infoId, ip: byOffset.rows[0]!.ip }); // no cursor columns leak
        expect({ total: byCursor.total, totalBounded: byCursor.totalBounded }).toEqual({ total: byOffset.total, totalBounded: byOffset.totalBounded });
        answer = byCursor;
      }
    }
    // a cursor is taken only for the page after its own and with its sort: other uses read by offset
    const page3 = (await pageOf(3)).rows.map((r) => r.infoId);
    const cursorOf1 = (await pageOf(1)).next;
    const cursorOf2 = (await pageOf(2)).next;
    expect((await pageOf(3, { after: cursorOf1 })).rows.map((r) => r.infoId)).toEqual(page3);
    expect((await pageOf(3, { after: cursorOf2 })).rows.map((r) => r.infoId)).toEqual(page3);
    const sortedPage3 = (await pageOf(3, { sort: 'ip' })).rows.map((r) => r.infoId);
    expect((await pageOf(3, { sort: 'ip', after: cursorOf2 })).rows.map((r) => r.infoId)).toEqual(sortedPage3);
    for (const garbage of ['', 'x', 'bm90IGpzb24', Buffer.from('[2,"loginTime desc",{"a":1},1]').toString('base64url'), Buffer.from('[2,"loginTime desc",1]').toString('base64url')]) {
      expect((await pageOf(3, { after: garbage })).rows.map((r) => r.infoId), garbage).toEqual(page3);
    }
    // the last page is not full: no cursor; a text where the sort holds integers is not taken (PostgreSQL would refuse it)
    const failedTotal = all.filter((r) => r.success === 0).length;
    expect((await pageOf(Math.ceil(failedTotal / 10), { failedOnly: true })).next).toBeUndefined();
    const injected = Buffer.from(JSON.stringify([2, 'loginTime desc', "1) or (1=1", 1])).toString('base64url');
    expect((await pageOf(3, { after: injected })).rows.map((r) => r.infoId)).toEqual(page3);
    expect(Number((await db.selectFrom('sys_login_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(all.length);
  });

  it('count a searched list in steps: 共 N+ 条 while rows continue past the step, the next step from its last page on, exact below', async () => {
    const step = 100; // the data has 'mid' ~286 times: steps of 100 cross it thrice
    const matching = expected('mid', 1).total;
    expect(matching).toBeGreaterThan(2 * step);
    expect(matching).toBeLessThan(3 * step);
    const page = async (n: number, filtered = db.selectFrom('sys_login_log').where(contains(db, 'sys_login_log', 'ip', 'mid'))) => {
      const answer = await listPage(db, filtered, (qb) => qb.select('infoId'), { page: n, limit: 10, sortField: '', sortOrder: '' },
        { sortColumns: {}, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId', searchCountStep: step });
      return { rows: answer.rows.map((r) => r.infoId), total: answer.total, totalBounded: answer.totalBounded };
    };
    const want = (n: number) => expected('mid', n).rows;
    // pages 1–10 hold rows 1–100: counted to 101, said 共 100+ 条; the pager offers page 11
    expect(await page(1)).toEqual({ rows: want(1), total: step + 1, totalBounded: true });
    expect(await page(10)).toEqual({ rows: want(10), total: step + 1, totalBounded: true });
    // page 11, the last the pager offered, counts to the next step, and so on until the rows end
    expect(await page(11)).toEqual({ rows: want(11), total: 2 * step + 1, totalBounded: true });
    expect(await page(21)).toEqual({ rows: want(21), total: matching, totalBounded: undefined });
    const last = Math.ceil(matching / 10);
    expect(await page(last)).toEqual({ rows: want(last), total: matching, totalBounded: undefined });
    // the same rows with an index-backed filter alone: exact up to LIST_COUNT_BOUND, however many
    const failed = all.filter((r) => r.success === 0).length;
    expect(failed).toBeGreaterThan(step);
    expect(await page(1, db.selectFrom('sys_login_log').where('success', '=', 0))).toMatchObject({ total: failed, totalBounded: undefined });
  });

  it('bound a searched count at the step holding the page, an unsearched one at LIST_COUNT_BOUND', () => {
    expect(countBoundOf(0, 10, true)).toBe(SEARCH_COUNT_STEP);
    expect(countBoundOf(SEARCH_COUNT_STEP - 10, 10, true)).toBe(SEARCH_COUNT_STEP); // page 100: rows 991–1,000
    expect(countBoundOf(SEARCH_COUNT_STEP, 10, true)).toBe(2 * SEARCH_COUNT_STEP); // page 101
    expect(countBoundOf(SEARCH_COUNT_STEP - 20, 40, true)).toBe(2 * SEARCH_COUNT_STEP); // a page across the step
    expect(countBoundOf(LIST_COUNT_BOUND, 10, true)).toBe(LIST_COUNT_BOUND);
    expect(countBoundOf(0, 10, false)).toBe(LIST_COUNT_BOUND);
  });

  it('remember a count that reached its bound for COUNT_MEMORY_MS, never an exact one', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const step = 100;
      const matching = expected('mid', 1).total;
      const failedMid = all.filter((r) => r.ip.toLowerCase().includes('mid') && r.success === 0);
      await db.transaction().execute(async (trx) => {
        const count = async (failedOnly: boolean) => {
          let filtered = trx.selectFrom('sys_login_log').where(contains(trx, 'sys_login_log', 'ip', 'mid'));
          if (failedOnly) filtered = filtered.where('success', '=', 0);
          const { total, totalBounded } = await listPage(trx, filtered, (qb) => qb.select('infoId'), { page: 1, limit: 10, sortField: '', sortOrder: '' },
            // one plan throughout: the memory is of a statement, and a term with few matches left is read another way
            { sortColumns: {}, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId', searchCountStep: step, searchPlan: 'scan' });
          return { total, totalBounded };
        };
        expect(await count(false)).toEqual({ total: step + 1, totalBounded: true });
        expect(await count(true)).toEqual({ total: failedMid.length, totalBounded: undefined });
        // all but 20 of the matches go, and one failed one: the bounded answer stands, the exact one moves at once
        const gone = all.filter((r) => r.ip.toLowerCase().includes('mid')).slice(20).map((r) => r.infoId);
        await trx.deleteFrom('sys_login_log').where('infoId', 'in', [...gone, failedMid[0]!.infoId]).execute();
        const left = matching - new Set([...gone, failedMid[0]!.infoId]).size;
        const failedLeft = failedMid.filter((r) => r.infoId !== failedMid[0]!.infoId && !gone.includes(r.infoId)).length;
        expect(await count(false)).toEqual({ total: step + 1, totalBounded: true });
        expect(await count(true)).toEqual({ total: failedLeft, totalBounded: undefined });
        vi.advanceTimersByTime(COUNT_MEMORY_MS);
        expect(await count(false)).toEqual({ total: left, totalBounded: undefined });
        throw new Rollback();
      }).catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('read a rare term as the key list of its matches on PostgreSQL, a common one with like', async () => {
    if (dialectOf(db) !== 'postgres') return;
    const plan = async (text: string, page: number) => (await read(text, page)).forms;
    expect(await plan('rare_x', 1)).toEqual({ page: ['keys'], count: ['keys'] });
    expect(await plan('zhang', 1)).toEqual({ page: ['scan'], count: ['scan'] });
    expect(await plan('mid', 1)).toEqual({ page: ['scan'], count: ['scan'] });
    expect(await plan('zh', 1)).toBeUndefined(); // no trigram: nothing to probe
    // zhang is in half the sampled texts: common without a probe, its page and its count with like
    await read('zhang', 1);
    statements.length = 0;
    recording = true;
    await read('zhang', 2).finally(() => { recording = false; });
    expect(statements.filter((text) => / as k from /.test(text))).toEqual([]);
  });

  it('take each side of the switch points on SQLite (the data above crosses them)', async () => {
    if (dialectOf(db) === 'postgres') return; // PostgreSQL: the test above
    expect(expected('mid', 1).total).toBeGreaterThanOrEqual(SEARCH_PROBE); // not rare
    expect(expected('mid', 1).total / ROWS).toBeLessThan(1 / 60); // yet a small share
    const plan = async (text: string, page: number) => (await read(text, page)).forms;
    // rare: the probe reads every match, the page and the count take them as a key list
    expect(await plan('rare_x', 1)).toEqual({ page: ['keys'], count: ['keys'] });
    // common: page 1 walks the sort index with like, the count scans with like
    expect(await plan('zhang', 1)).toEqual({ page: ['scan'], count: ['scan'] });
    expect(await plan('ZHANG1', 1)).toEqual({ page: ['scan'], count: ['scan'] }); // 1,111 of 20,000
    // 1.4% of rows: page 1 by walking, the count streamed from FTS5; the last page through FTS5 too
    expect(await plan('mid', 1)).toEqual({ page: ['scan'], count: ['stream'] });
    expect(await plan('mid', 29)).toEqual({ page: ['indexed'], count: ['stream'] });
    // 1–2 characters: no trigram, always like, nothing to plan
    expect(await plan('zh', 1)).toBeUndefined();
  });

  it('ask FTS5 for the text less its dense trigrams (1,000+ rows and 8× its rarest trigram\'s): the runs between them, all matched', async () => {
    if (dialectOf(db) === 'postgres') return;
    const parts = (text: string) => withoutDenseTrigrams(text, ftsTrigramRows(db, 'sys_login_log_search', 'ip'));
    // zha, han, ang: 10,000 rows each; ng1 5,555: the text's matches are no fewer than the dense ones would save
    expect(await parts('ZHANG1')).toEqual(['ZHANG1']);
    expect(await parts('1zhang')).toEqual(['1zh']); // 1zh: no row
    expect(await parts('x1zhang1')).toEqual(['x1zh']); // ng1 is dense beside x1z
    expect(await parts('wang.mid7')).toEqual(['wan', 'ng.mid7']); // ang inside: 10,286 rows, the rest ≤ 286
    expect(await parts('zhang')).toEqual(['zhang']); // under 4 characters no narrowing; 5: three trigrams alike
    expect(await parts('rare_x')).toEqual(['rare_x']);
    // the parts' matches checked with like are the text's (the suite above compares every form; here the two parts)
    expect((await read('x1zhang1', 1)).total).toBe(0);
    expect(await read('1zhang1', 1)).toMatchObject({ rows: expected('1zhang1', 1).rows, total: expected('1zhang1', 1).total });
  });

  it('ask FTS5 for the rarest trigram and the rarest apart from it while they rule out more candidates than they cost (SQLite)', async () => {
    if (dialectOf(db) === 'postgres') return;
    const counter = ftsTrigramRows(db, 'sys_login_log_search', 'ip');
    // wan, ng., g.m, .mi, mid: 286 rows each (Wang.Mid…), ang 10,286, id7 ~29: id7, then wan (apart from it and
    // worth its 286 rows); g.m is apart from both but would rule out too few of the ~0.4 candidates left
    expect(await separateTrigrams('wang.mid7', counter, ROWS)).toEqual(['wan', 'id7']);
    expect(await separateTrigrams('zhang', counter, ROWS)).toBeUndefined(); // no two trigrams apart
    expect(await separateTrigrams('1zhang', counter, ROWS)).toBeUndefined(); // 1zh: no row, nothing left to rule out
    statements.length = 0;
    recording = true;
    const narrowed = await read('wang.mid7', 1);
    recording = false;
    expect(narrowed).toMatchObject({ rows: expected('wang.mid7', 1).rows, total: expected('wang.mid7', 1).total });
    const probe = statements.find((text) => / as k from /.test(text))!;
    expect(parametersOf.get(probe)).toContain('ip : ("wan" AND "id7")'); // each match then checked with like
  });

  it('take a trigram only while its rows cost less than the candidates it rules out (the bench\'s wangfang7)', async () => {
    // the rows holding each trigram of wangfang7 among the bench's 100,000 users
    const rows: Record<string, number> = { wan: 4_000, ang: 31_600, ngf: 1_600, gfa: 800, fan: 2_500, ng7: 4_125 };
    const counter = { resolution: 1, rowsOf: (trigram: string) => rows[trigram]! };
    // gfa (800 candidates), wan (4,000 rows read rule out ~768 of them), ng7 (4,125 rows for ~31 of ~32 left): not taken
    expect(await separateTrigrams('wangfang7', counter, 100_000)).toEqual(['wan', 'gfa']);
    // in a table of 5,000 rows wan is in most of them: it would rule out too few of gfa's 800
    expect(await separateTrigrams('wangfang7', counter, 5_000)).toBeUndefined();
  });

  it('ask the GIN index for the text less its dense trigrams on PostgreSQL, as the statistics\' sample of the column tells them', async () => {
    if (dialectOf(db) !== 'postgres') return;
    const counter = await pgTrigramRows(db, 'sys_login_log', 'ip');
    // the sample reads the index's texts: lowercase, the ip's dots as x; one of ~100 sampled texts stands for ~200 rows
    expect(await counter.rowsOf('ang')).toBeGreaterThan(8_000); // 10,286 rows
    expect(await counter.rowsOf('ng.')).toBe(0);
    expect(await counter.rowsOf('xmi')).toBeLessThan(1_000); // 286
    expect(counter.resolution).toBeGreaterThan(100);
    expect(counter.resolution).toBeLessThan(400);
    const parts = (text: string) => withoutDenseTrigrams(text, counter);
    expect(await parts('wangxmid7')).toEqual(['wan', 'ngxmid7']); // ang: dense beside id7 (≈ 29 rows, none sampled: taken as one text's share)
    expect(await parts('zhang1')).toEqual(['zhang1']); // ng1 in 5,555 rows: nothing 8× as common
    // the narrowed forms answer what the text does (the suite above compares every term; here the narrowed one)
    statements.length = 0;
    recording = true;
    const narrowed = await read('wang.mid7', 1);
    recording = false;
    expect(narrowed).toMatchObject({ rows: expected('wang.mid7', 1).rows, total: expected('wang.mid7', 1).total });
    expect(statements[0]!.match(/translate\(/g)).toHaveLength(2); // the probe asks for the two parts
    expect(await read('wang.mid7', 1)).toMatchObject({ rows: expected('wang.mid7', 1).rows, total: expected('wang.mid7', 1).total });
    expect(await read('WANG.MID7', 1)).toMatchObject({ rows: expected('wang.mid7', 1).rows, total: expected('wang.mid7', 1).total });
  });

  it('choose by the share of matching rows, the depth of the page and the trigrams of the term', () => {
    const probe = (share: number, trigrams = 3, rows = 1_000_000) => ({ n: SEARCH_PROBE, firstKey: 1, nthMatch: Math.round(SEARCH_PROBE / share), lastKey: rows, trigrams });
    expect(chooseSearchPlan({ n: 3, firstKey: 1, nthMatch: 10, lastKey: 1_000_000, trigrams: 3 }, 0, 10)).toEqual({ page: 'indexed', count: 'stream' });
    expect(chooseSearchPlan(probe(0.5, 3, 20_000), 0, 10)).toEqual({ page: 'scan', count: 'scan' });
    expect(chooseSearchPlan(probe(0.04, 3, 100_000), 0, 10)).toEqual({ page: 'scan', count: 'scan' }); // zhang of 100,000 users, counted to 10,001
    expect(chooseSearchPlan(probe(0.1, 1, 100_000), 0, 10)).toEqual({ page: 'scan', count: 'stream' }); // 双十一: one trigram, FTS5 counts it cheaper
    expect(chooseSearchPlan(probe(0.001, 6), 0, 10)).toEqual({ page: 'scan', count: 'stream' }); // 1 in 1,000: ~10,000 rows walked
    expect(chooseSearchPlan(probe(0.001, 6), 4990, 10)).toEqual({ page: 'indexed', count: 'stream' }); // page 500
    expect(chooseSearchPlan(probe(0.0002, 6), 0, 10)).toEqual({ page: 'indexed', count: 'stream' }); // 1 in 5,000
    // counted to SEARCH_COUNT_STEP + 1: the FTS5 stream stops after 1,001 matches
    expect(chooseSearchPlan(probe(0.04, 3, 100_000), 0, 10, SEARCH_COUNT_STEP)).toEqual({ page: 'scan', count: 'stream' });
    expect(chooseSearchPlan(probe(0.5, 3, 20_000), 0, 10, SEARCH_COUNT_STEP)).toEqual({ page: 'scan', count: 'scan' }); // a small table
  });
});
