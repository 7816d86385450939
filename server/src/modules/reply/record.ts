import { sql, type Kysely } from 'kysely';
import { BlacklistSource, isSendableNumber, isUnsubscribeReply, TaskNumberState, type DeviceRepliesRequest, type DeviceRepliesResult } from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import type { DeviceIdentity } from '../device/device-auth.ts';
import { unsubscribeKeywords } from './keywords.ts';

// POST /device/v1/replies (docs/device-protocol.md "Replies"): the replies a device's phone received,
// kept once per (device, the phone's message id), each linked to the last task of the device's owner that
// sent to its number. A reply that is a 退订 keyword puts a mainland mobile number on the owner's company
// 黑名单 (source 回复退订, at the reply's time), in the same transaction as the reply: later uploads skip
// it, and the pull makes the company's still-queued numbers final (blocked) instead of handing them out.
// A number that is no mainland mobile (a service number) or an owner of no company lists nothing.

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
          taskId: mobile ? await lastTaskSentTo(trx, device.ownerId, reply.phone) : null,
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

/**
 * The owner's task that sent to the number last, off the partial index of sent numbers by phone
 * (migration 0036). The state is a literal, so the statement's text itself proves the index's condition
 * (the generic plan of a prepared statement on PostgreSQL does not use a partial index for a parameter).
 */
export function lastTaskSentToQuery(db: Kysely<Database>, ownerId: number, phone: string) {
  return db
    .selectFrom('sync_task_number as n')
    .innerJoin('sync_task as t', 't.taskId', 'n.taskId')
    .select('n.taskId')
    .where('n.phone', '=', Number(phone))
    .where('n.state', '=', sql.lit(TaskNumberState.sent))
    .where('t.userId', '=', ownerId)
    .orderBy('n.doneAt', 'desc')
    .orderBy('n.taskId', 'desc')
    .limit(1);
}

async function lastTaskSentTo(db: Kysely<Database>, ownerId: number, phone: string): Promise<number | null> {
  const row = await lastTaskSentToQuery(db, ownerId, phone).executeTakeFirst();
  return row?.taskId ?? null;
}
