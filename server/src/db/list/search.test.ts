import { beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { testDbKind } from '../../test/test-database.ts';
import type { Database } from '../schema.ts';
import { BASE, ROWS, useLoginLogList, type Row } from '../../test/login-log-list-fixture.ts';
import { listPage } from './paging.ts';
import { contains, SEARCH_PROBE } from './search.ts';
import { ftsTrigramRows, separateTrigrams, withoutDenseTrigrams } from './trigrams.ts';

// A contains filter read any way (SQLite: a rare term's keys, the FTS5 IN list, a walk with `like`, the count
// streamed or scanned; a value list; PostgreSQL: `like`) answers exactly what the simple plan answers: the
// same rows, in the same order, with the same total, for rare, common and 1–2 character terms.

class Rollback extends Error {}

// which database this run reads is known when the tests are defined: a case for the other one is reported as skipped
const onPostgres = testDbKind() === 'postgres';

describe('list pages with contains filters: every form = the simple plan', () => {
  const f = useLoginLogList();
  const { read, expected, statements } = f;
  let db: Kysely<Database>;
  let all: Row[];
  beforeAll(() => {
    db = f.db;
    all = f.all;
  });

  const { readNames, parametersOf } = f;

  it('reads the database this run names (the cases for the other one are skipped by that name)', () => {
    expect(dialectOf(db)).toBe(testDbKind());
  });

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

  it.each(terms)('answer the rows, order and total of the simple plan for %j searched through a value list, every page and sort', async (text) => {
    const lastPage = Math.max(1, Math.ceil(expected(text, 1).total / 10));
    for (const page of [...new Set([1, 2, Math.ceil(lastPage / 2), lastPage, lastPage + 1])]) {
      for (const extra of [{}, { sort: 'ip' as const }, { failedOnly: true }]) {
        const got = await readNames(text, page, { ...extra, searchPlan: 'stream' }); // a forced plan is no plan for a value list
        expect({ rows: got.rows, total: got.total, totalBounded: got.totalBounded }, `${text} page ${page} ${JSON.stringify(extra)}`).toEqual(expected(text, page, extra));
      }
    }
  }, 60_000);

  // PostgreSQL reads every term with like: nothing to remember
  it.skipIf(onPostgres)('read a common term on SQLite with its page and its count: that it is common is remembered (SQLite only)', async () => {
    await read('mid', 1);
    statements.length = 0;
    f.recording = true;
    const got = await read('mid', 1).finally(() => { f.recording = false; });
    expect(got.forms).toEqual({ page: ['scan'], count: ['stream'] });
    expect({ rows: got.rows, total: got.total, totalBounded: got.totalBounded }).toEqual(expected('mid', 1));
    expect(statements).toHaveLength(2);
    expect(statements.some((text) => /min\(|select rowid as k/.test(text))).toBe(false);
  });

  it('remember that a term is common, never a rare term\'s matches: each reads the rows as they are now', async () => {
    const readIn = async (q: Kysely<Database>, text: string) => {
      const answer = await listPage(q, q.selectFrom('sys_login_log'), (qb) => qb.select(['infoId']), { page: 1, limit: 10, sortField: '', sortOrder: '' },
        { sortColumns: {}, defaultSort: ['loginTime', 'desc'], tieBreaker: 'infoId', searches: [contains(q, 'sys_login_log', 'ip', text)] });
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

  // PostgreSQL reads every term with like: no probe, no key list
  it.skipIf(onPostgres)('count a rare term (its matches a key list) in the statement of its full page: the probe and the page, nothing else (SQLite only)', async () => {
    const text = 'wang.mid7';
    const all = expected(text, 1).total;
    expect(all).toBeGreaterThan(10); // a full page 1: a count is needed
    await read(text, 1); // SQLite counts the term's trigrams once a minute: a repeat
    statements.length = 0;
    f.recording = true;
    const got = await read(text, 1).finally(() => { f.recording = false; });
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

  it.runIf(onPostgres)('read every search with like on PostgreSQL, the planner choosing the index: no probe, no plan (PostgreSQL only)', async () => {
    for (const text of ['rare_x', 'zhang', 'mid', 'zh']) expect((await read(text, 1)).forms, text).toBeUndefined();
    statements.length = 0;
    f.recording = true;
    await read('wang.mid7', 1).finally(() => { f.recording = false; });
    expect(statements.filter((text) => / as k from /.test(text))).toEqual([]);
    expect(statements[0]).toMatch(/translate\(/); // the ip asked as its index holds it (search-index.ts joinedWords)
  });

  it.skipIf(onPostgres)('read a rare term as its keys, a common one by walking the sort index with its count streamed (SQLite only)', async () => {
    expect(expected('mid', 1).total).toBeGreaterThanOrEqual(SEARCH_PROBE); // not rare, yet 1.4 % of the rows
    const plan = async (text: string, page: number) => (await read(text, page)).forms;
    expect(await plan('rare_x', 1)).toEqual({ page: ['keys'], count: ['keys'] });
    for (const [text, page] of [['zhang', 1], ['ZHANG1', 1], ['mid', 1], ['mid', 29]] as const) {
      expect(await plan(text, page), `${text} page ${page}`).toEqual({ page: ['scan'], count: ['stream'] });
    }
    expect(await plan('zh', 1)).toBeUndefined(); // 1–2 characters: no trigram, always like, nothing to plan
  });

  it.skipIf(onPostgres)('ask FTS5 for the text less its dense trigrams (1,000+ rows and 8× its rarest trigram\'s): the runs between them, all matched (SQLite only)', async () => {
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

  it.skipIf(onPostgres)('ask FTS5 for the rarest trigram and the rarest apart from it while they rule out more candidates than they cost (SQLite only)', async () => {
    const counter = ftsTrigramRows(db, 'sys_login_log_search', 'ip');
    // wan, ng., g.m, .mi, mid: 286 rows each (Wang.Mid…), ang 10,286, id7 ~29: id7, then wan (apart from it and
    // worth its 286 rows); g.m is apart from both but would rule out too few of the ~0.4 candidates left
    expect(await separateTrigrams('wang.mid7', counter, ROWS)).toEqual(['wan', 'id7']);
    expect(await separateTrigrams('zhang', counter, ROWS)).toBeUndefined(); // no two trigrams apart
    expect(await separateTrigrams('1zhang', counter, ROWS)).toBeUndefined(); // 1zh: no row, nothing left to rule out
    statements.length = 0;
    f.recording = true;
    const narrowed = await read('wang.mid7', 1);
    f.recording = false;
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
});
