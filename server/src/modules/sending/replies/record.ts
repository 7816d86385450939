import { sql, type Kysely } from 'kysely';
import { BlacklistSource, isSendableNumber, isUnsubscribeReply, TaskNumberState, type DeviceRepliesRequest, type DeviceRepliesResult } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { Database } from '../../../db/schema.ts';
import type { DeviceIdentity } from '../devices/index.ts';
import { unsubscribeKeywords } from './keywords.ts';

// POST /device/v1/replies (docs/device-protocol.md "Replies"): the replies a device's phone received,
// kept once per (device, the phone's message id), each linked to the last task of the device's owner
// that this device sent its number to (lastTaskSentToQuery). A reply that is a 退订 keyword puts a
// mainland mobile number on the owner's company 黑名单 (source 回复退订, at the reply's time), in the same
// transaction as the reply: later uploads skip it, and the pull makes the company's still-queued numbers
// final (blocked) instead of handing them out. A number that is no mainland mobile (a service number) or
// an owner of no company lists nothing.

export async function recordReplies(ctx: AppContext, device: DeviceIdentity, input: DeviceRepliesRequest): Promise<DeviceRepliesResult> {
  const keywords = await unsubscribeKeywords(ctx.db);
  const owner = await ctx.db.selectFrom('sys_user').select('deptId').where('userId', '=', device.ownerId).executeTakeFirst();
  const deptId = owner?.deptId ?? null;
  const createdAt = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    const result: DeviceRepliesResult = { accepted: 0, duplicates: 0, unsubscribed: 0 };
    for (const reply of input.replies) {
      const mobile = isSendableNumber(reply.phone);
      const unsubscribes = mobile && deptId !== null && isUnsubscribeReply(reply.content, keywords);
      const inserted = await trx
        .insertInto('sync_reply')
        .values({
          deptId, userId: device.ownerId, authCodeId: device.authCodeId, machineCode: device.machineCode, machineName: device.machineName,
          messageId: reply.messageId, phone: reply.phone, content: reply.content, receivedAt: reply.receivedAt, createdAt,
          taskId: mobile ? await lastTaskSentTo(trx, device, reply.phone, createdAt) : null,
          unsubscribed: unsubscribes ? 1 : 0,
        })
        .onConflict((oc) => oc.columns(['machineCode', 'messageId']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) {
        result.duplicates += 1;
        continue;
      }
      result.accepted += 1;
      if (!unsubscribes) continue;
      result.unsubscribed += 1;
      // already listed (by hand, an upload, an earlier reply): the entry stays as it is
      await trx
        .insertInto('sync_blacklist')
        .values({ deptId: deptId!, phone: Number(reply.phone), addUser: device.ownerName, addTime: reply.receivedAt, source: BlacklistSource.reply })
        .onConflict((oc) => oc.columns(['deptId', 'phone']).doNothing())
        .execute();
    }
    return result;
  });
}

/** How far back a reply's device's batches are searched for the number. */
export const REPLY_TASK_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The last task of the owner this device sent the number to, in the device's fresh batches (newest
 * first) of the last REPLY_TASK_DAYS days: a reply comes back to the SIM that sent the message, so the
 * device's own sends are where the message that prompted it is (another device of the owner that sent
 * to the same number later sent another message). Each batch is read off the device's batch index and
 * its range of sent numbers off (taskId, state, id); the number must have been sent by this device (a
 * lapsed batch's rest may have gone out through another). Not found: a number this device sent as a
 * retry of another device's batch (given back after a failure or an ended lease), which no batch range
 * of this device holds. The state is a literal, so the statement's text proves the index's state term.
 */
export function lastTaskSentToQuery(db: Kysely<Database>, device: Pick<DeviceIdentity, 'machineCode' | 'ownerId'>, phone: string, now: number) {
  return db
    .selectFrom('sync_batch as b')
    .innerJoin('sync_task_number as n', (join) => join
      .onRef('n.taskId', '=', 'b.taskId')
      .on('n.state', '=', sql.lit(TaskNumberState.sent))
      .onRef('n.id', '>=', 'b.fromId')
      .onRef('n.id', '<=', 'b.toId'))
    .innerJoin('sync_task as t', 't.taskId', 'b.taskId')
    .select('b.taskId')
    .where('b.machineCode', '=', device.machineCode)
    .where('b.addTime', '>=', now - REPLY_TASK_DAYS * DAY_MS)
    .where('n.phone', '=', Number(phone))
    .where('n.machineCode', '=', device.machineCode)
    .where('t.userId', '=', device.ownerId)
    .orderBy('b.addTime', 'desc')
    .limit(1);
}

async function lastTaskSentTo(db: Kysely<Database>, device: DeviceIdentity, phone: string, now: number): Promise<number | null> {
  const row = await lastTaskSentToQuery(db, device, phone, now).executeTakeFirst();
  return row?.taskId ?? null;
}
