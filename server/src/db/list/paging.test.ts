import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Kysely } from 'kysely';
import { LIST_COUNT_BOUND, SEARCH_COUNT_STEP } from '@huiyun/contract';
import type { Database } from '../schema.ts';
import { timeOf, useLoginLogList, type Row } from '../../test/login-log-list-fixture.ts';
import { countBoundOf } from './counting.ts';
import { COUNT_MEMORY_MS } from './memory.ts';
import { listPage } from './paging.ts';
import { contains } from './search.ts';

// A list's page and total: counted with the page when it was exact lately, in steps when searched, bounded
// and remembered when it reaches the bound; a page read from the cursor of the page before it.

class Rollback extends Error {}

describe('list pages: counts, bounds and cursors', () => {
  const f = useLoginLogList();
  const { expected, statements } = f;
  let db: Kysely<Database>;
  let all: Row[];
  beforeAll(() => {
    db = f.db;
    all = f.all;
  });

  it('count in the page\'s statement a list whose count was exact lately: one statement, the total live; not once it reaches its bound', async () => {
    const failed = all.filter((r) => r.success === 0);
    expect(failed.length).toBeLessThan(LIST_COUNT_BOUND);
    const page = async (n: number, where: 'failed' | 'all') => {
      const filtered = where === 'failed' ? db.selectFrom('sys_login_log').where('success', '=', 0) : db.selectFrom('sys_login_log');
      statements.length = 0;
      f.recording = true;
      const answer = await listPage(db, filtered, (qb) => qb.select('infoId'), { page: n, limit: 10, sortField: '', sortOrder: '' },
        { sortColumns: {}, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId' }).finally(() => { f.recording = false; });
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
          const filtered = trx.selectFrom('sys_login_log').where('success', '=', 0);
          statements.length = 0;
          f.recording = true;
          const { total, totalBounded } = await listPage(trx, filtered, (qb) => qb.select('infoId'), { page: 1, limit: 10, sortField: '', sortOrder: '' },
            { sortColumns: {}, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId', searchCountStep: step, searchPlan: 'scan', searches: [contains(trx, 'sys_login_log', 'ip', 'mid')] }).finally(() => { f.recording = false; });
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
    const page = async (n: number, filtered = db.selectFrom('sys_login_log'), searches = [contains(db, 'sys_login_log', 'ip', 'mid')]) => {
      const answer = await listPage(db, filtered, (qb) => qb.select('infoId'), { page: n, limit: 10, sortField: '', sortOrder: '' },
        { sortColumns: {}, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId', searchCountStep: step, searches });
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
    expect(await page(1, db.selectFrom('sys_login_log').where('success', '=', 0), [])).toMatchObject({ total: failed, totalBounded: undefined });
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
          let filtered = trx.selectFrom('sys_login_log');
          if (failedOnly) filtered = filtered.where('success', '=', 0);
          const { total, totalBounded } = await listPage(trx, filtered, (qb) => qb.select('infoId'), { page: 1, limit: 10, sortField: '', sortOrder: '' },
            // one plan throughout: the memory is of a statement, and a term with few matches left is read another way
            { sortColumns: {}, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId', searchCountStep: step, searchPlan: 'scan', searches: [contains(trx, 'sys_login_log', 'ip', 'mid')] });
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

  it('writes every limit in the text, never bound (SQLite compiles a statement with a bound LIMIT again at each run), one shape per page size', async () => {
    const pageOf = async (n: number, limit: number, searches = [contains(db, 'sys_login_log', 'ip', 'mid')]) => {
      const answer = await listPage(db, db.selectFrom('sys_login_log'), (qb) => qb.select('infoId'), { page: n, limit, sortField: '', sortOrder: '' },
        { sortColumns: {}, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId', searches });
      return answer.rows.map((r) => r.infoId);
    };
    statements.length = 0;
    f.recording = true;
    try {
      // the same shapes with two page sizes, in turns: each its own statement, each the rows of its size
      const newestFirst = [...all].sort((a, b) => b.loginTime - a.loginTime || b.infoId - a.infoId);
      const want = (n: number, limit: number, text: string) => newestFirst.filter((r) => r.ip.toLowerCase().includes(text)).slice((n - 1) * limit, n * limit).map((r) => r.infoId);
      for (const [n, limit] of [[1, 10], [1, 20], [3, 10], [3, 20]] as const) {
        expect(await pageOf(n, limit)).toEqual(want(n, limit, 'mid'));
        expect(await pageOf(n, limit, [])).toEqual(want(n, limit, ''));
      }
    } finally {
      f.recording = false;
    }
    expect(statements.length).toBeGreaterThan(8);
    expect(statements.filter((text) => /limit (\?|\$\d)/i.test(text))).toEqual([]);
  });
});
