import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { Carrier, carrierKeys, classifyCarrier, messages, TaskStatus, type CarrierKey } from '@huiyun/contract';
import { generateNumberFileWithCounts } from '../../../../../bench/lib/number-file-fixture.ts';
import { admin, adminA, companyB, dataDir, demo, t, user1, user1Id, user2, user2Id, useSendingCast } from '../../../test/sending-cast.ts';
import { testDbKind } from '../../../test/test-database.ts';
import { uploadNumbers, uploadVia } from '../../../test/uploads.ts';
import { insertCompany, insertTask } from '../../../test/rows.ts';
import { importNumbers } from './upload-numbers.ts';

const m = messages.upload;

useSendingCast('up');

let taskSeq = 0;
const newTask = (userId = user1Id, extra: { deptId?: number | null; taskStatus?: number } = {}) =>
  insertTask(t, { taskName: `up_task_${++taskSeq}`, userId, deptId: extra.deptId === undefined ? 1 : extra.deptId, taskStatus: extra.taskStatus });
const uploadTaskData = (token: string, body: Record<string, unknown>) => t.call('POST', '/sync/uploadTaskData', { token, body });
const taskRow = (taskId: number) => t.ctx.db.selectFrom('sync_task').selectAll().where('taskId', '=', taskId).executeTakeFirstOrThrow();
async function numbersOf(taskId: number): Promise<number[]> {
  const rows = await t.ctx.db.selectFrom('sync_task_number').select(['phone', 'carrier', 'state']).where('taskId', '=', taskId).orderBy('id').execute();
  for (const row of rows) {
    expect(row.state).toBe(0);
    expect(row.carrier).toBe(classifyCarrier(String(row.phone)));
  }
  return rows.map((r) => Number(r.phone));
}
function splitOf(numbers: number[]): Record<CarrierKey, number> {
  const split = { mobile: 0, unicom: 0, telecom: 0, other: 0 };
  for (const n of numbers) split[carrierKeys[classifyCarrier(String(n))]] += 1;
  return split;
}
/** Uploads `content` as user1 into `taskId`; answers the envelope. */
async function upload(taskId: number, content: Uint8Array | string, token = user1) {
  const fileNo = await uploadNumbers(t, token, content);
  return uploadTaskData(token, { taskId, fileNo, fileName: 'numbers.txt', fileUrl: '' });
}
/** The task's counters agree with its rows. */
async function expectCountersAgree(taskId: number) {
  const task = await taskRow(taskId);
  const numbers = await numbersOf(taskId);
  const split = splitOf(numbers);
  expect({ totalNum: task.totalNum, mcount: task.mcount, ucount: task.ucount, tcount: task.tcount, ocount: task.ocount }).toEqual({
    totalNum: numbers.length, mcount: split.mobile, ucount: split.unicom, tcount: split.telecom, ocount: split.other,
  });
}

const gbk = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const ZHANG_SAN_GBK = [0xd5, 0xc5, 0xc8, 0xfd];

describe('POST /sync/uploadTaskData', () => {
  it('counts a file of nasty lines and writes the numbers with the task counters', async () => {
    const taskId = await newTask();
    const file = [
      '13800138000',
      '+86 139 0013 9000',
      '86-130-0013-0000',
      '0086 18900189000',
      '13800138000',
      '1380013800',
      '138001380001',
      'abc',
      '',
      '13800138000,13700137000;13600136000\t15000150000',
      '张三 17000170000',
      '12345678901',
      '   ',
      '(021)-',
    ].join('\r\n');
    const answer = await upload(taskId, file);
    const valid = [13800138000, 13900139000, 13000130000, 18900189000, 13700137000, 13600136000, 15000150000, 17000170000];
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, msg: m.dataUploaded, errorInfo: m.dataUploaded });
    expect(answer.body.data).toEqual({
      valid: 8, duplicates: 2, invalid: 6, blocked: 0, byCarrier: splitOf(valid),
      invalidSamples: [
        { line: 6, text: '1380013800' }, { line: 7, text: '138001380001' }, { line: 8, text: 'abc' },
        { line: 11, text: '张三' }, { line: 12, text: '12345678901' }, { line: 14, text: '(021)-' },
      ],
    });
    expect((await numbersOf(taskId)).sort()).toEqual([...valid].sort());
    expect(await taskRow(taskId)).toMatchObject({ totalNum: 8, duplicateNum: 2, invalidNum: 6, blockedNum: 0 });
    await expectCountersAgree(taskId);
  });

  it.each([
    ['only junk', 'abc\r\n\r\n姓名\r\nn/a\r\n', { valid: 0, duplicates: 0, invalid: 3 }],
    ['UTF-8 with BOM', '\ufeff13800138000\n13900139000\n', { valid: 2, duplicates: 0, invalid: 0 }],
    ['UTF-16LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('13800138000\r\n张三\r\n13800138000\r\n', 'utf16le')]), { valid: 1, duplicates: 1, invalid: 1 }],
    ['UTF-16BE with BOM', Buffer.from(Buffer.from('\ufeff13800138000\r\n13900139000\r\n', 'utf16le').swap16()), { valid: 2, duplicates: 0, invalid: 0 }],
    ['UTF-16LE without BOM', Buffer.from('13800138000\n18900189000\n', 'utf16le'), { valid: 2, duplicates: 0, invalid: 0 }],
    ['GBK', gbk(ZHANG_SAN_GBK, ',13800138000\r\n', ZHANG_SAN_GBK, '\r\n13000130000\r\n'), { valid: 2, duplicates: 0, invalid: 2 }],
    ['full-width digits and separators', '１３８００１３８０００，１３９００１３９０００', { valid: 2, duplicates: 0, invalid: 0 }],
    ['CR only line ends, no final newline', '13800138000\r13900139000\r13800138000', { valid: 2, duplicates: 1, invalid: 0 }],
  ])('reads %s', async (_name, content, expected) => {
    const taskId = await newTask();
    const answer = await upload(taskId, content);
    expect(answer.body).toMatchObject({ success: true, data: { ...expected, blocked: 0 } });
    expect(await numbersOf(taskId)).toHaveLength(expected.valid);
    await expectCountersAgree(taskId);
  });

  it('takes several uploads, counting numbers the task already holds as duplicates', async () => {
    const taskId = await newTask();
    const first = await upload(taskId, '13800138000\n13900139000\n13000130000\n');
    expect(first.body.data).toMatchObject({ valid: 3, duplicates: 0 });
    const second = await upload(taskId, '13900139000\n13000130000\n18900189000\n18900189000\nxyz\n');
    expect(second.body.data).toMatchObject({ valid: 1, duplicates: 3, invalid: 1, byCarrier: { mobile: 0, unicom: 0, telecom: 1, other: 0 } });
    expect(await taskRow(taskId)).toMatchObject({ totalNum: 4, duplicateNum: 3, invalidNum: 1 });
    await expectCountersAgree(taskId);
    // the same numbers in another task are no duplicates there
    const other = await newTask();
    expect((await upload(other, '13800138000\n')).body.data).toMatchObject({ valid: 1, duplicates: 0 });
  });

  it('skips and counts numbers on the task company\'s do-not-contact list', async () => {
    const now = Date.now();
    await t.ctx.db.insertInto('sync_blacklist').values([
      { deptId: 1, phone: 13500135000, addUser: 'test', addTime: now },
      { deptId: companyB, phone: 13600136000, addUser: 'test', addTime: now },
    ]).execute();
    const taskId = await newTask();
    const answer = await upload(taskId, '13500135000\n13600136000\n13500135000\n13700137000\n');
    expect(answer.body.data).toMatchObject({ valid: 2, blocked: 1, duplicates: 1, invalid: 0 });
    expect((await numbersOf(taskId)).sort()).toEqual([13600136000, 13700137000]);
    expect(await taskRow(taskId)).toMatchObject({ totalNum: 2, blockedNum: 1 });
  });

  it('handles a file of 30,000 lines (the bench fixture) exactly', async () => {
    const { file, counts } = generateNumberFileWithCounts(30_000, { junkRate: 0.02, duplicateRate: 0.03, seed: 7 });
    const taskId = await newTask();
    const answer = await upload(taskId, file);
    expect(answer.body.data).toMatchObject({ valid: counts.valid, duplicates: counts.duplicates, invalid: counts.invalid, blocked: 0 });
    await expectCountersAgree(taskId);
  });

  it('lets an administrator upload into a task of its company, form bodies too', async () => {
    const taskId = await newTask(user1Id);
    const fileNo = await uploadNumbers(t, adminA, '13800138000\n');
    const answer = await t.call('POST', '/sync/uploadTaskData', {
      token: adminA, body: `taskId=${taskId}&fileNo=${fileNo}&fileName=a.txt&fileUrl=`, headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.body).toMatchObject({ success: true, data: { valid: 1 } });
  });

  it('refuses a completed task, another user\'s file, a non-number file, unknown ids, and changes nothing', async () => {
    const completed = await newTask(user1Id, { taskStatus: TaskStatus.completed });
    const mine = await uploadNumbers(t, user1, '13800138000\n');
    const theirs = await uploadNumbers(t, user2, '13800138000\n');
    const image = (await uploadVia(t, user1, { fileName: 'a.gif', content: 'GIF89a......' }, { kind: 'image' })).body.data[0].fileNo;
    const open = await newTask();
    const user2Task = await newTask(user2Id);
    const cases: [string, Record<string, unknown>, number, string][] = [
      [user1, { taskId: completed, fileNo: mine }, 400, m.taskCompleted],
      [user1, { taskId: open, fileNo: theirs }, 403, messages.common.forbidden],
      [admin, { taskId: open, fileNo: mine }, 403, messages.common.forbidden],
      [user1, { taskId: open, fileNo: image }, 400, m.notNumberFile],
      [user1, { taskId: open, fileNo: 'nosuchfile' }, 404, m.fileNotFound],
      [user1, { taskId: user2Task, fileNo: mine }, 404, messages.common.notFoundRecord],
      [user1, { taskId: 999999, fileNo: mine }, 404, messages.common.notFoundRecord],
      [user1, { fileNo: mine }, 400, m.taskRequired],
      [user1, { taskId: 'abc', fileNo: mine }, 400, m.taskRequired],
      [user1, { taskId: open }, 400, m.fileNoRequired],
      [user1, { taskId: open, fileNo: '' }, 400, m.fileNoRequired],
      [demo, { taskId: open, fileNo: mine }, 403, messages.common.forbidden],
    ];
    for (const [token, body, status, message] of cases) {
      const answer = await uploadTaskData(token, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body).toMatchObject({ success: false, msg: message });
    }
    for (const taskId of [completed, open, user2Task]) {
      expect(await numbersOf(taskId)).toEqual([]);
      expect(await taskRow(taskId)).toMatchObject({ totalNum: 0, duplicateNum: 0, invalidNum: 0, blockedNum: 0 });
    }
  });

  it.each([['in this thread', false], ['on a worker thread', true]])('writes nothing when the file breaks half-way, after slices were written (%s)', async (_name, worker) => {
    const taskId = await newTask();
    await upload(taskId, '18900189000\n');
    const before = await taskRow(taskId);
    async function* broken() {
      for (let i = 0; i < 50; i += 1) yield Buffer.from(`${13800000000 + i}\n`);
      throw new Error('disk read error');
    }
    await expect(importNumbers(t.ctx, { taskId, deptId: 1 }, broken(), { sliceSize: 10, worker })).rejects.toThrow('disk read error');
    expect(await numbersOf(taskId)).toEqual([18900189000]);
    expect(await taskRow(taskId)).toEqual(before);
  });

  it('reads a stored file on the worker thread, and writes nothing when that read fails', async () => {
    const { file, counts } = generateNumberFileWithCounts(5_000, { junkRate: 0.02, duplicateRate: 0.03, seed: 5 });
    const stored = path.join(dataDir, 'stored-numbers.txt');
    fs.writeFileSync(stored, file);
    const taskId = await newTask();
    const answer = await importNumbers(t.ctx, { taskId, deptId: 1 }, { path: stored }, { sliceSize: 700, worker: true });
    expect(answer).toMatchObject({ valid: counts.valid, duplicates: counts.duplicates, invalid: counts.invalid, blocked: 0 });
    const distinct = [...new Set(file.toString('latin1').split('\n').filter((l) => /^1[3-9]\d{9}$/.test(l)).map(Number))];
    expect(await numbersOf(taskId)).toEqual(distinct);
    // a directory cannot be read: the worker's read fails, after nothing was inserted
    const before = await taskRow(taskId);
    await expect(importNumbers(t.ctx, { taskId, deptId: 1 }, { path: dataDir }, { worker: true })).rejects.toThrow(/EISDIR/);
    expect(await taskRow(taskId)).toEqual(before);
    expect(await numbersOf(taskId)).toHaveLength(counts.valid);
  });

  it('writes nothing when the worker thread fails', async () => {
    const taskId = await newTask();
    const before = await taskRow(taskId);
    async function* file() {
      yield Buffer.from('13800138000\n13900139000\n');
    }
    // a slice size no typed array takes: the worker throws as it starts
    await expect(importNumbers(t.ctx, { taskId, deptId: 1 }, file(), { sliceSize: -1, worker: true })).rejects.toThrow(RangeError);
    expect(await numbersOf(taskId)).toEqual([]);
    expect(await taskRow(taskId)).toEqual(before);
  });

  it('writes nothing for a task deleted before the transaction', async () => {
    const taskId = await newTask();
    await t.ctx.db.deleteFrom('sync_task').where('taskId', '=', taskId).execute();
    async function* file() {
      yield Buffer.from('13800138000\n13900139000\n');
    }
    await expect(importNumbers(t.ctx, { taskId, deptId: 1 }, file(), { sliceSize: 1 })).rejects.toMatchObject({ statusCode: 404 });
    const rows = await t.ctx.db.selectFrom('sync_task_number').select('id').where('taskId', '=', taskId).execute();
    expect(rows).toEqual([]);
  });

  describe.each([['in this thread', false], ['on a worker thread', true]])('ids in file order (%s)', (_name, worker) => {
    const importFile = (taskId: number, lines: (string | number)[], deptId: number | null = 1) => {
      async function* chunks() {
        const bytes = Buffer.from(lines.join('\n'));
        for (let at = 0; at < bytes.length; at += 7) yield bytes.subarray(at, at + 7); // chunk edges inside numbers
      }
      return importNumbers(t.ctx, { taskId, deptId }, chunks(), { sliceSize: 3, worker });
    };

    it('gives the numbers ids in the order they first appear, across slices and uploads', async () => {
      const taskId = await newTask();
      const first = [19900199000, 13800138000, 17100171000, 13000130000, 18900189000, 14700147000, 16600166000];
      const answer = await importFile(taskId, [...first.slice(0, 3), 'junk', 13800138000, ...first.slice(3)]);
      expect(answer).toMatchObject({ valid: 7, duplicates: 1, invalid: 1, blocked: 0, byCarrier: splitOf(first) });
      expect(await numbersOf(taskId)).toEqual(first);
      // a second upload: numbers the task holds are counted as duplicates, new ones follow in file order
      const second = await importFile(taskId, [15000150000, 13800138000, 19800198000, 15000150000, 14700147000, 13300133000]);
      expect(second).toMatchObject({ valid: 3, duplicates: 3, invalid: 0, byCarrier: splitOf([15000150000, 19800198000, 13300133000]) });
      expect(await numbersOf(taskId)).toEqual([...first, 15000150000, 19800198000, 13300133000]);
      expect(await taskRow(taskId)).toMatchObject({ totalNum: 10, duplicateNum: 4, invalidNum: 1 });
      await expectCountersAgree(taskId);
    });

    it('reads the bench fixture exactly, in file order, with do-not-contact numbers left out', async () => {
      const { file, counts } = generateNumberFileWithCounts(30_000, { junkRate: 0.02, duplicateRate: 0.03, seed: 11 });
      const lines = file.toString('latin1').split('\n');
      const distinct = [...new Set(lines.filter((l) => /^1[3-9]\d{9}$/.test(l)).map(Number))];
      expect(distinct).toHaveLength(counts.valid);
      const dept = await insertCompany(t, `UPLOAD_ORDER_${worker ? 'W' : 'T'}`);
      const blocked = [distinct[5], distinct[20_000]];
      const now = Date.now();
      await t.ctx.db.insertInto('sync_blacklist').values(blocked.map((phone) => ({ deptId: dept, phone, addUser: 'test', addTime: now }))).execute();
      const taskId = await newTask(user1Id, { deptId: dept });
      async function* chunks() {
        for (let at = 0; at < file.length; at += 4096) yield file.subarray(at, at + 4096);
      }
      const answer = await importNumbers(t.ctx, { taskId, deptId: dept }, chunks(), { sliceSize: 1000, worker });
      const kept = distinct.filter((n) => !blocked.includes(n));
      expect(answer).toMatchObject({ valid: kept.length, duplicates: counts.duplicates, invalid: counts.invalid, blocked: 2, byCarrier: splitOf(kept) });
      expect(await numbersOf(taskId)).toEqual(kept);
      await expectCountersAgree(taskId);
    });
  });

  it.skipIf(testDbKind() !== 'sqlite')('sets SQLite\'s page cache back after an upload', async () => {
    const cacheSize = async () => Number((await sql<{ cache_size: number }>`pragma cache_size`.execute(t.ctx.db)).rows[0].cache_size);
    const before = await cacheSize();
    const taskId = await newTask();
    await upload(taskId, '13800138000\n');
    expect(await cacheSize()).toBe(before);
    const broken = async function* () {
      yield Buffer.from('13900139000\n');
      throw new Error('disk read error');
    };
    await expect(importNumbers(t.ctx, { taskId, deptId: 1 }, broken(), { sizeHint: 1e8 })).rejects.toThrow('disk read error');
    expect(await cacheSize()).toBe(before);
  });

  it('keeps carriers of the 19x, 16x, 14x and virtual ranges apart', async () => {
    const taskId = await newTask();
    const numbers = [19800198000, 16600166000, 14700147000, 17100171000, 19200192000, 19900199000, 16500165000];
    const answer = await upload(taskId, numbers.join('\n'));
    expect(answer.body.data.byCarrier).toEqual(splitOf(numbers));
    expect(Object.values(answer.body.data.byCarrier as Record<string, number>).reduce((a, b) => a + b)).toBe(numbers.length);
    expect(Carrier.other).toBe(4);
    await expectCountersAgree(taskId);
  });
});
