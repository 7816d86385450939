import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BlacklistSource, DEFAULT_UNSUBSCRIBE_KEYWORDS, fill, messages, Perm, RoleId, TaskNumberState, TaskStatus, UNSUBSCRIBE_KEYWORDS_VARIABLE,
} from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { uploadNumbers } from '../../../test/uploads.ts';
import { readXlsxExport } from '../../../test/xlsx-export.ts';
import { testDbKind } from '../../../test/test-database.ts';
import { activate, bearer, insertAuthCode, insertSendingTask, pull, report } from '../../../test/devices.ts';
import { lastTaskSentToQuery, REPLY_TASK_DAYS } from './record.ts';

const m = messages.reply;

let t: TestApp;
let companyA: number;
let companyB: number;
let userAId: number;
let userBId: number;
let admin: string;
let adminA: string;
let userA: string;
let userA2: string;
let userB: string;
let demoA: string;
let deviceSeq = 0;

type Device = { machineCode: string; token: string };
type Reply = { messageId: string; phone: unknown; content: unknown; receivedAt: unknown };

/** A fresh device of the owner (its code of the owner's company). */
async function newDevice(ownerId: number, deptId: number, name = `回复设备${deviceSeq + 1}`): Promise<Device> {
  const code = await insertAuthCode(t, ownerId, { deptId });
  const machineCode = `reply-${++deviceSeq}`;
  return { machineCode, token: await activate(t, code, machineCode, name) };
}

let messageSeq = 0;
const RECEIVED = Date.UTC(2026, 10, 20, 2, 0, 0); // 2026-11-20 10:00 in Shanghai
const replyOf = (phone: string, content: string, receivedAt = RECEIVED): Reply => ({ messageId: `in-${++messageSeq}`, phone, content, receivedAt });
const upload = (device: Device, replies: unknown) => t.call('POST', '/device/v1/replies', { headers: bearer(device.token), body: { replies } });
const list = (token: string, body: Record<string, unknown> = {}) => t.call('POST', '/sync/queryReplyList', { token, body: { pageNum: 1, pageSize: 50, ...body } });
const listedOn = (deptId: number, phone: string) =>
  t.ctx.db.selectFrom('sync_blacklist').selectAll().where('deptId', '=', deptId).where('phone', '=', Number(phone)).executeTakeFirst();
const replyCount = async () => Number((await t.ctx.db.selectFrom('sync_reply').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

let deviceA: Device;
let deviceA2: Device;
let deviceB: Device;

beforeAll(async () => {
  t = await startTestApp();
  companyA = (await t.ctx.db.selectFrom('sys_dept').select('deptId').where('deptNo', '=', 'DEMO').executeTakeFirstOrThrow()).deptId;
  companyB = await t.createCompany('回复B公司', 'RP_B');
  await t.createUser({ userName: 'rp_adminA', roleId: RoleId.companyAdmin, deptId: companyA });
  userAId = await t.createUser({ userName: 'rp_userA', deptId: companyA });
  await t.createUser({ userName: 'rp_userA2', deptId: companyA });
  userBId = await t.createUser({ userName: 'rp_userB', deptId: companyB });
  await t.createUser({ userName: 'rp_demoA', roleId: RoleId.demo, deptId: companyA });
  admin = await t.login('admin', ADMIN_PASSWORD);
  adminA = await t.login('rp_adminA', 'User@12345');
  userA = await t.login('rp_userA', 'User@12345');
  userA2 = await t.login('rp_userA2', 'User@12345');
  userB = await t.login('rp_userB', 'User@12345');
  demoA = await t.login('rp_demoA', 'User@12345');
  deviceA = await newDevice(userAId, companyA, '销售部-小米13');
  deviceA2 = await newDevice(userAId, companyA);
  deviceB = await newDevice(userBId, companyB);
});
afterAll(async () => {
  await t?.close();
});

describe('POST /device/v1/replies', () => {
  it('keeps each reply once per device and message id; a repeat counts as a duplicate', async () => {
    const replies = [replyOf('13800001001', '收到'), replyOf('13800001002', '好的')];
    const first = await upload(deviceA, replies);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, msg: m.replied, data: { accepted: 2, duplicates: 0, unsubscribed: 0 } });
    const again = await upload(deviceA, [...replies, replies[0]]);
    expect(again.body.data).toEqual({ accepted: 0, duplicates: 3, unsubscribed: 0 });
    // the same id from another phone is another message
    expect((await upload(deviceA2, [replies[0]])).body.data).toEqual({ accepted: 1, duplicates: 0, unsubscribed: 0 });
    const rows = await t.ctx.db.selectFrom('sync_reply').selectAll().where('messageId', '=', replies[0].messageId).orderBy('id').execute();
    expect(rows.map((r) => [r.machineCode, r.phone, r.content, Number(r.receivedAt), r.userId, r.deptId])).toEqual([
      [deviceA.machineCode, '13800001001', '收到', RECEIVED, userAId, companyA],
      [deviceA2.machineCode, '13800001001', '收到', RECEIVED, userAId, companyA],
    ]);
  });

  it('keeps a mainland mobile number as its 11 digits, anything else as given', async () => {
    const given = ['+86 138 0000 2001', '8613800002002', '0086-138-0000-2003', '10086', '+44 7700 900123', `+1${'9'.repeat(40)}`];
    const replies = given.map((phone) => replyOf(phone, '你好'));
    expect((await upload(deviceA, replies)).body.data.accepted).toBe(6);
    const stored = await t.ctx.db.selectFrom('sync_reply').select(['messageId', 'phone']).where('messageId', 'in', replies.map((r) => r.messageId)).execute();
    const byId = new Map(stored.map((r) => [r.messageId, r.phone]));
    expect(replies.map((r) => byId.get(r.messageId))).toEqual(['13800002001', '13800002002', '13800002003', '10086', '+44 7700 900123', `+1${'9'.repeat(30)}`]);
  });

  it('cleans the content like other device text and keeps at most 1000 characters', async () => {
    const reply = replyOf('13800003001', `  第一行\n第二\u0000行\t${'长'.repeat(1200)}`);
    await upload(deviceA, [reply]);
    const row = await t.ctx.db.selectFrom('sync_reply').select('content').where('messageId', '=', reply.messageId).executeTakeFirstOrThrow();
    expect(row.content.startsWith('第一行 第二行 长')).toBe(true);
    expect([...row.content]).toHaveLength(1000);
  });

  it('answers bad input with a clear 400 and writes nothing of the upload', async () => {
    const good = replyOf('13800004001', 'TD');
    const cases: [unknown, string][] = [
      [undefined, m.repliesRequired],
      ['x', m.repliesRequired],
      [[], m.repliesRequired],
      [Array.from({ length: 101 }, () => replyOf('13800004002', '好')), fill(m.repliesTooMany, { max: 100 })],
      [[good, { ...replyOf('13800004003', '好'), messageId: '' }], m.messageIdInvalid],
      [[good, { ...replyOf('13800004003', '好'), messageId: 'x'.repeat(65) }], m.messageIdInvalid],
      [[good, { ...replyOf('13800004003', '好'), messageId: 'a\u0000b' }], m.messageIdInvalid],
      [[good, { ...replyOf('x', '好'), phone: undefined }], m.replyPhoneRequired],
      [[good, { ...replyOf('x', '好'), phone: 13800004003 }], m.replyPhoneRequired],
      [[good, replyOf('  ', '好')], m.replyPhoneRequired],
      [[good, { ...replyOf('13800004003', '好'), receivedAt: '2026-11-20' }], m.receivedAtInvalid],
      [[good, { ...replyOf('13800004003', '好'), receivedAt: -1 }], m.receivedAtInvalid],
      [[good, { ...replyOf('13800004003', '好'), receivedAt: 1.5 }], m.receivedAtInvalid],
    ];
    const before = await replyCount();
    for (const [replies, message] of cases) {
      const answer = await upload(deviceA, replies);
      expect(answer.status, message).toBe(400);
      expect(answer.body).toMatchObject({ success: false, msg: message });
    }
    expect(await replyCount()).toBe(before);
    expect(await listedOn(companyA, '13800004001')).toBeUndefined();
  });

  it('refuses a call without a valid device token', async () => {
    const answer = await t.call('POST', '/device/v1/replies', { headers: bearer('dv_nope'), body: { replies: [replyOf('13800005001', 'TD')] } });
    expect(answer.status).toBe(401);
    expect((await t.call('POST', '/device/v1/replies', { token: userA, body: { replies: [replyOf('13800005001', 'TD')] } })).status).toBe(401);
  });
});

describe('automatic 退订', () => {
  it('takes a whole keyword reply, trimmed, in any case or width, as an unsubscribe', async () => {
    const phones = ['13800010001', '13800010002', '13800010003', '13800010004', '13800010005', '13800010006', '13800010007'];
    const contents = ['T', 'td', 'ＴＤ', ' 退订 ', '拒收', 'TD谢谢', '请退订'];
    const answer = await upload(deviceA, phones.map((phone, i) => replyOf(`+86${phone}`, contents[i], RECEIVED + i)));
    expect(answer.body.data).toEqual({ accepted: 7, duplicates: 0, unsubscribed: 5 });
    for (const [i, phone] of phones.entries()) {
      const entry = await listedOn(companyA, phone);
      if (i < 5) expect(entry, contents[i]).toMatchObject({ source: BlacklistSource.reply, addTime: RECEIVED + i, addUser: 'rp_userA' });
      else expect(entry, contents[i]).toBeUndefined();
    }
    const flags = await t.ctx.db.selectFrom('sync_reply').select(['phone', 'unsubscribed']).where('phone', 'in', phones).orderBy('id').execute();
    expect(flags.map((r) => r.unsubscribed)).toEqual([1, 1, 1, 1, 1, 0, 0]);
  });

  it('lists the number in the owner company only; another company keeps its own', async () => {
    await upload(deviceB, [replyOf('13800011001', '好的')]);
    await upload(deviceA, [replyOf('13800011001', 'TD')]);
    expect(await listedOn(companyA, '13800011001')).toBeDefined();
    expect(await listedOn(companyB, '13800011001')).toBeUndefined();
  });

  it('leaves an entry already on the list as it was', async () => {
    const added = await t.call('POST', '/sync/saveBlacklist', { token: userA, body: { phones: '13800012001' } });
    expect(added.body.data.added).toBe(1);
    const before = await listedOn(companyA, '13800012001');
    const answer = await upload(deviceA, [replyOf('13800012001', 'T', RECEIVED + 99_000)]);
    expect(answer.body.data).toEqual({ accepted: 1, duplicates: 0, unsubscribed: 1 });
    expect(await listedOn(companyA, '13800012001')).toEqual(before);
    expect(before?.source).toBe(BlacklistSource.manual);
  });

  it('does not list a number that is no mainland mobile', async () => {
    const answer = await upload(deviceA, [replyOf('10086', 'TD')]);
    expect(answer.body.data).toEqual({ accepted: 1, duplicates: 0, unsubscribed: 0 });
  });

  it('makes a later upload skip the number', async () => {
    await upload(deviceA, [replyOf('13800013001', 'TD')]);
    const taskId = await insertSendingTask(t, userAId, [], [], { deptId: companyA, taskStatus: TaskStatus.paused });
    const fileNo = await uploadNumbers(t, userA, '13800013001\n13800013002');
    const answer = await t.call('POST', '/sync/uploadTaskData', { token: userA, body: { taskId, fileNo, fileName: 'numbers.txt', fileUrl: '' } });
    expect(answer.body).toMatchObject({ success: true, data: { valid: 1, blocked: 1 } });
  });

  it('keeps a number of the company still queued from being handed out; another company still sends to it', async () => {
    const sender = await newDevice(userAId, companyA);
    const senderB = await newDevice(userBId, companyB);
    const queued = ['13800014001', '13800014002', '13800014003'];
    const taskA = await insertSendingTask(t, userAId, [sender.machineCode], queued, { deptId: companyA });
    const taskB = await insertSendingTask(t, userBId, [senderB.machineCode], queued, { deptId: companyB });
    await upload(deviceA, [replyOf('13800014002', '退订')]);

    const batch = (await pull(t, sender.token)).body.data.batch;
    expect(batch.taskId).toBe(taskA);
    expect(batch.items.map((i: { phone: string }) => i.phone)).toEqual(['13800014001', '13800014003']);
    const blocked = await t.ctx.db.selectFrom('sync_task_number').select(['state']).where('taskId', '=', taskA).where('phone', '=', 13800014002).executeTakeFirstOrThrow();
    expect(blocked.state).toBe(TaskNumberState.blocked);

    const batchB = (await pull(t, senderB.token)).body.data.batch;
    expect(batchB.taskId).toBe(taskB);
    expect(batchB.items.map((i: { phone: string }) => i.phone)).toEqual(queued);
  });

  it('reads the keywords from 系统环境变量: an edit changes them at once, a deleted variable means the default', async () => {
    const variable = await t.ctx.db.selectFrom('sys_variable').selectAll().where('varName', '=', UNSUBSCRIBE_KEYWORDS_VARIABLE).executeTakeFirstOrThrow();
    expect(variable).toMatchObject({ varValue: DEFAULT_UNSUBSCRIBE_KEYWORDS, varLable: m.keywordsLabel });
    const saved = await t.call('POST', '/api/Variable/save', { token: admin, body: { varId: variable.varId, varLable: variable.varLable, varName: variable.varName, varValue: '取消，ｂｙｅ、停止' } });
    expect(saved.body.success).toBe(true);
    const answer = await upload(deviceA, [replyOf('13800015001', 'TD'), replyOf('13800015002', '取消'), replyOf('13800015003', 'BYE'), replyOf('13800015004', ' 停止')]);
    expect(answer.body.data).toEqual({ accepted: 4, duplicates: 0, unsubscribed: 3 });
    expect(await listedOn(companyA, '13800015001')).toBeUndefined();
    expect(await listedOn(companyA, '13800015003')).toBeDefined();

    await t.ctx.db.deleteFrom('sys_variable').where('varId', '=', variable.varId).execute();
    expect((await upload(deviceA, [replyOf('13800015005', 'TD'), replyOf('13800015006', '取消')])).body.data.unsubscribed).toBe(1);
    await t.ctx.db.insertInto('sys_variable').values({ ...variable, varId: undefined }).execute();
  });
});

describe('the task a reply is linked to', () => {
  /** Sends the task's numbers through the device: one pull, every item reported sent. */
  async function sendAll(device: Device) {
    const batch = (await pull(t, device.token)).body.data.batch;
    const items = batch.items.filter((i: { id: number | null }) => i.id !== null);
    const answer = await report(t, device.token, batch.batchId, items.map((i: { id: number }) => ({ id: i.id, status: 'sent' })));
    expect(answer.body.data.sent).toBe(items.length);
    return batch.taskId as number;
  }

  it('is the last task this device sent the number to; none when it sent it none', async () => {
    const sender = await newDevice(userAId, companyA);
    const sender2 = await newDevice(userAId, companyA);
    const first = await insertSendingTask(t, userAId, [sender.machineCode], ['13800020001', '13800020002'], { deptId: companyA });
    expect(await sendAll(sender)).toBe(first);
    await upload(sender, [replyOf('13800020001', '好的')]);
    t.clock.advance(1000);
    const second = await insertSendingTask(t, userAId, [sender.machineCode], ['13800020001'], { deptId: companyA });
    expect(await sendAll(sender)).toBe(second);
    // the owner's other phone sends to the number later: a reply to this phone is about this phone's message
    t.clock.advance(1000);
    const third = await insertSendingTask(t, userAId, [sender2.machineCode], ['13800020001'], { deptId: companyA });
    expect(await sendAll(sender2)).toBe(third);
    await upload(sender, [replyOf('13800020001', '什么事'), replyOf('13800020002', '?'), replyOf('13800020003', '谁')]);
    await upload(sender2, [replyOf('13800020001', '又来了')]);
    await upload(deviceA, [replyOf('13800020002', '不是我')]);
    const rows = await t.ctx.db.selectFrom('sync_reply').select(['phone', 'content', 'taskId']).where('phone', 'like', '1380002000%').orderBy('id').execute();
    expect(rows.map((r) => [r.phone, r.content, r.taskId])).toEqual([
      ['13800020001', '好的', first],
      ['13800020001', '什么事', second],
      ['13800020002', '?', first],
      ['13800020003', '谁', null],
      ['13800020001', '又来了', third],
      ['13800020002', '不是我', null],
    ]);
  });

  it.runIf(testDbKind() === 'sqlite')('is found off the device batch index and each batch range, not by reading every number', async () => {
    const compiled = lastTaskSentToQuery(t.ctx.db, { machineCode: deviceA.machineCode, ownerId: userAId }, '13800020001', Date.now()).compile();
    const plan = (await t.ctx.db.executeQuery<{ detail: string }>({ ...compiled, sql: `explain query plan ${compiled.sql}` })).rows.map((r) => r.detail).join('\n');
    expect(plan).toContain('sync_batch_device_time');
    expect(plan).toContain('sync_task_number_state');
  });

});

describe('回复记录', () => {
  let taskA: number;
  let sender: Device;
  beforeAll(async () => {
    sender = await newDevice(userAId, companyA, '销售部-华为P60');
    taskA = await insertSendingTask(t, userAId, [sender.machineCode], ['13900030001'], { deptId: companyA });
    await t.ctx.db.updateTable('sync_task').set({ taskName: '双十一回访' }).where('taskId', '=', taskA).execute();
    const batch = (await pull(t, sender.token)).body.data.batch;
    await report(t, sender.token, batch.batchId, [{ id: batch.items[0].id, status: 'sent' }]);
    const day = (d: number) => Date.UTC(2026, 10, d, 4, 0, 0);
    await upload(sender, [replyOf('13900030001', '谢谢，已收到优惠券', day(1)), replyOf('13900030002', 'TD', day(2))]);
    await upload(deviceB, [replyOf('13900030003', '优惠券怎么用', day(3))]);
  });

  it('shows each caller the replies of its scope: its own, its company to an administrator, all to the super administrator', async () => {
    const phones = async (token: string) => new Set((await list(token, { phone: '1390003000' })).body.data.map((r: { phone: string }) => r.phone));
    expect(await phones(userA)).toEqual(new Set(['13900030001', '13900030002']));
    expect(await phones(adminA)).toEqual(new Set(['13900030001', '13900030002']));
    expect(await phones(userA2)).toEqual(new Set());
    expect(await phones(userB)).toEqual(new Set(['13900030003']));
    expect(await phones(admin)).toEqual(new Set(['13900030001', '13900030002', '13900030003']));
  });

  it('answers the rows newest first with their device, task and unsubscribe flag', async () => {
    const answer = await list(userA, { phone: '1390003000' });
    expect(answer.body).toMatchObject({ success: true, total: 2 });
    expect(answer.body.data).toEqual([
      {
        id: expect.any(Number), receivedAt: '2026-11-02 12:00:00', phone: '13900030002', content: 'TD', machineCode: sender.machineCode,
        machineName: '销售部-华为P60', userName: 'rp_userA', taskId: null, taskName: '', unsubscribed: true,
      },
      {
        id: expect.any(Number), receivedAt: '2026-11-01 12:00:00', phone: '13900030001', content: '谢谢，已收到优惠券', machineCode: sender.machineCode,
        machineName: '销售部-华为P60', userName: 'rp_userA', taskId: taskA, taskName: '双十一回访', unsubscribed: false,
      },
    ]);
  });

  it('filters by number, content, task, device, days and 仅退订', async () => {
    const phonesOf = async (body: Record<string, unknown>) => (await list(admin, { phone: '1390003000', ...body })).body.data.map((r: { phone: string }) => r.phone).sort();
    expect(await phonesOf({ phone: '13900030003' })).toEqual(['13900030003']);
    expect(await phonesOf({ phone: '+86 139-0003' })).toEqual(['13900030001', '13900030002', '13900030003']);
    expect(await phonesOf({ content: '优惠券' })).toEqual(['13900030001', '13900030003']);
    expect(await phonesOf({ content: 'td' })).toEqual(['13900030002']);
    expect(await phonesOf({ taskName: '十一回' })).toEqual(['13900030001']);
    expect(await phonesOf({ machineName: '华为' })).toEqual(['13900030001', '13900030002']);
    expect(await phonesOf({ start: '2026-11-02', end: '2026-11-03' })).toEqual(['13900030002', '13900030003']);
    expect(await phonesOf({ end: '2026-11-01' })).toEqual(['13900030001']);
    expect(await phonesOf({ unsubscribedOnly: true })).toEqual(['13900030002']);
    expect(await phonesOf({ unsubscribedOnly: '1' })).toEqual(['13900030002']);
  });

  it('refuses a bad filter with its message', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ phone: 'abc' }, m.phoneSearchInvalid],
      [{ start: '2026-13-01' }, m.startInvalid],
      [{ end: 'yesterday' }, m.endInvalid],
      [{ start: '2026-11-03', end: '2026-11-01' }, m.dateOrder],
    ];
    for (const [body, message] of cases) {
      const answer = await list(admin, body);
      expect(answer.status, message).toBe(400);
      expect(answer.body.msg).toBe(message);
    }
  });

  it('exports the filtered list of the caller scope', async () => {
    const { raw } = await t.call('POST', '/sync/exportReplyList', { token: userA, body: { phone: '1390003000' } });
    const rows = await readXlsxExport(raw, m.title);
    expect(rows[0]).toEqual([m.receivedAt, m.phone, m.content, m.device, m.userName, m.task, m.unsubscribed]);
    expect(rows.slice(1).map((r) => [r[1], r[5] ?? '', r[6]])).toEqual([['13900030002', '', m.yes], ['13900030001', '双十一回访', m.no]]);
  });

  it('shows the number a reply unsubscribed in 黑名单 with its source', async () => {
    const answer = await t.call('POST', '/sync/queryBlacklist', { token: userA, body: { phone: '13900030002' } });
    expect(answer.body.data[0]).toMatchObject({ phone: '13900030002', source: BlacklistSource.reply, addTime: '2026-11-02 12:00:00' });
    const { raw } = await t.call('POST', '/sync/exportBlacklist', { token: userA, body: { phone: '13900030002' } });
    const rows = await readXlsxExport(raw, messages.blacklist.title);
    expect(rows[1].at(-1)).toBe(messages.blacklist.sourceReply);
  });

  it('needs task:Reply:list', async () => {
    expect((await list(demoA)).status).toBe(200);
    const { permissionId } = await t.ctx.db.selectFrom('sys_permission').select('permissionId').where('permission', '=', Perm.replyList).executeTakeFirstOrThrow();
    await t.ctx.db.deleteFrom('sys_role_permission').where('roleId', '=', RoleId.demo).where('permissionId', '=', permissionId).execute();
    const demoId = (await t.ctx.db.selectFrom('sys_user').select('userId').where('userName', '=', 'rp_demoA').executeTakeFirstOrThrow()).userId;
    await t.ctx.accessCache.invalidate(demoId);
    expect((await list(demoA)).status).toBe(403);
    expect((await t.call('POST', '/sync/exportReplyList', { token: demoA, body: {} })).status).toBe(403);
  });
});

// Last: it moves the clock past the sessions' lifetime.
describe('the task link, a month later', () => {
  it('is looked for in the device batches of the last 30 days only', async () => {
    const sender = await newDevice(userAId, companyA);
    await insertSendingTask(t, userAId, [sender.machineCode], ['13800021001'], { deptId: companyA });
    const batch = (await pull(t, sender.token)).body.data.batch;
    await report(t, sender.token, batch.batchId, [{ id: batch.items[0].id, status: 'sent' }]);
    t.clock.advance((REPLY_TASK_DAYS + 1) * 24 * 60 * 60 * 1000);
    await upload(sender, [replyOf('13800021001', '上个月的短信')]);
    const row = await t.ctx.db.selectFrom('sync_reply').select('taskId').where('phone', '=', '13800021001').executeTakeFirstOrThrow();
    expect(row.taskId).toBeNull();
  });
});
