import { beforeAll, describe, expect, it } from 'vitest';
import { messages, TaskNumberState } from '@huiyun/contract';
import { admin, adminA, adminB, demo, t, user1, user1Id, user2, useSendingCast } from '../../../test/sending-cast.ts';
import { contentDisposition } from '../../../infra/file-storage.ts';
import { insertTask } from '../../../test/rows.ts';

const m = messages.upload;

let taskId: number;

// state per number: 0 pending, 1 leased, 2 sent, 3 failed, 4 blocked
const NUMBERS: [number, number][] = [
  [13800138000, TaskNumberState.pending], [13900139000, TaskNumberState.sent], [13000130000, TaskNumberState.leased],
  [18900189000, TaskNumberState.failed], [13700137000, TaskNumberState.sent], [15000150000, TaskNumberState.pending],
  [15800158000, TaskNumberState.blocked],
];

useSendingCast('ex');
beforeAll(async () => {
  taskId = await insertTask(t, { taskName: '双十一/活动:A', userId: user1Id, deptId: 1 });
  await t.ctx.db.insertInto('sync_task_number').values(NUMBERS.map(([phone, state]) => ({ taskId, phone, carrier: 1, state }))).execute();
});

const exportVia = (query: string, token?: string) =>
  t.app.inject({ method: 'GET', url: `/sync/exportTask?${query}`, headers: token ? { token } : {} });
const lines = (body: string) => (body === '' ? [] : body.replace(/\r\n$/, '').split('\r\n'));
const phones = (...states: number[]) => NUMBERS.filter(([, s]) => states.includes(s)).map(([p]) => String(p));

describe('/sync/exportTask', () => {
  it('streams each export type as a CRLF .txt named after the task, token in the query', async () => {
    const cases: [string, string[], string][] = [
      ['&exportType=1', NUMBERS.map(([p]) => String(p)), '全部'],
      ['&exportType=2', phones(TaskNumberState.pending, TaskNumberState.leased, TaskNumberState.failed), '未发送'],
      ['', phones(TaskNumberState.pending, TaskNumberState.leased, TaskNumberState.failed), '未发送'],
      ['&exportType=3', phones(TaskNumberState.sent), '已发送'],
    ];
    for (const [type, expected, label] of cases) {
      const answer = await exportVia(`userId=${user1Id}&token=${user1}&taskId=${taskId}${type}`);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(answer.headers['content-disposition']).toBe(contentDisposition('attachment', `双十一_活动A-${label}.txt`));
      expect(answer.body.endsWith('\r\n')).toBe(true);
      expect(lines(answer.body)).toEqual(expected);
    }
  });

  it('answers an empty file for a task without numbers of that type', async () => {
    const empty = await insertTask(t, { taskName: 'empty', userId: user1Id, deptId: 1 });
    const answer = await exportVia(`taskId=${empty}&exportType=1`, user1);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('');
  });

  it('takes POST with a form or JSON body', async () => {
    const form = await t.app.inject({
      method: 'POST', url: '/sync/exportTask', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${user1}&taskId=${taskId}&exportType=3`,
    });
    expect(lines(form.body)).toEqual(phones(TaskNumberState.sent));
    const json = await t.call('POST', '/sync/exportTask', { token: user1, body: { taskId, exportType: 1 } });
    expect(lines(json.raw.body)).toHaveLength(NUMBERS.length);
  });

  it('pages through many numbers in id order, skipping other tasks\' rows', async () => {
    const big = await insertTask(t, { taskName: 'big', userId: user1Id, deptId: 1 });
    const other = await insertTask(t, { taskName: 'other', userId: user1Id, deptId: 1 });
    const expected: string[] = [];
    // 25,000 numbers interleaved with another task's rows, a few sent
    for (let start = 0; start < 25_000; start += 2_500) {
      const rows = Array.from({ length: 2_500 }, (_, k) => ({ taskId: big, phone: 13000000000 + start + k, carrier: 2, state: (start + k) % 97 === 0 ? TaskNumberState.sent : TaskNumberState.pending }));
      await t.ctx.db.insertInto('sync_task_number').values(rows).execute();
      await t.ctx.db.insertInto('sync_task_number').values({ taskId: other, phone: 18000000000 + start, carrier: 3 }).execute();
      if (start === 10_000) {
        // a long stretch of another task's ids: windows without rows of this task are jumped over
        const stretch = Array.from({ length: 12_000 }, (_, k) => ({ taskId: other, phone: 18100000000 + k, carrier: 3 }));
        for (let k = 0; k < stretch.length; k += 2_000) await t.ctx.db.insertInto('sync_task_number').values(stretch.slice(k, k + 2_000)).execute();
      }
      for (const row of rows) if (row.state === TaskNumberState.pending) expected.push(String(row.phone));
    }
    const answer = await exportVia(`taskId=${big}&exportType=2`, user1);
    expect(lines(answer.body)).toEqual(expected);
    const all = await exportVia(`taskId=${big}&exportType=1`, user1);
    expect(lines(all.body)).toHaveLength(25_000);
  });

  it('lets administrators of the task\'s company export, refuses everyone else', async () => {
    expect(lines((await exportVia(`taskId=${taskId}&exportType=1`, admin)).body)).toHaveLength(NUMBERS.length);
    expect(lines((await exportVia(`taskId=${taskId}&exportType=1`, adminA)).body)).toHaveLength(NUMBERS.length);
    for (const [token, status, message] of [
      // Another's task answers like a missing one: its existence is not told.
      [user2, 404, messages.common.notFoundRecord], [adminB, 404, messages.common.notFoundRecord], [demo, 403, messages.common.forbidden],
    ] as const) {
      const answer = await exportVia(`taskId=${taskId}`, token);
      expect(answer.statusCode).toBe(status);
      expect(answer.json()).toMatchObject({ success: false, msg: message });
    }
    expect((await exportVia(`taskId=${taskId}`)).statusCode).toBe(401);
  });

  it('answers a clear message for a wrong exportType or task', async () => {
    const cases: [string, number, string][] = [
      [`taskId=${taskId}&exportType=4`, 400, m.exportTypeInvalid],
      [`taskId=${taskId}&exportType=0`, 400, m.exportTypeInvalid],
      [`taskId=${taskId}&exportType=all`, 400, m.exportTypeInvalid],
      ['exportType=1', 400, m.taskRequired],
      ['taskId=abc', 400, m.taskRequired],
      ['taskId=999999', 404, messages.common.notFoundRecord],
    ];
    for (const [query, status, message] of cases) {
      const answer = await exportVia(query, user1);
      expect(answer.statusCode, query).toBe(status);
      expect(answer.json()).toMatchObject({ success: false, msg: message });
    }
  });
});
