import { sql } from 'kysely';
import {
  DeliveryState, DeviceDeliveryStatus, shanghaiDay, TaskNumberState, type DeviceDeliveryRequest, type DeviceDeliveryResult,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { DeviceIdentity } from './device-auth.ts';

type Outcome = { state: number; reason: string | null };
type Tally = { delivered: number; undelivered: number };

const add = (tally: Tally, state: number) => {
  if (state === DeliveryState.delivered) tally.delivered += 1;
  else tally.undelivered += 1;
};

/**
 * One delivery report (docs/device-protocol.md §5). A result sets the outcome of a number that is sent,
 * was sent by this device and has no outcome yet — the guarded UPDATE is the once-only rule, so a repeat,
 * a second part's event, an undelivered after delivered or a number of another device changes nothing
 * (ignored). What it set is counted, in the same transaction, on the task (deliveredNum, undeliveredNum)
 * and on its owner (deliveredNum beside totalSendNum, and the Shanghai day's row of sync_send_daily).
 * Row locks are taken in the order a sending report takes them (numbers, tasks, owners, days), so the two
 * cannot deadlock on PostgreSQL.
 */
export async function recordDeliveries(ctx: AppContext, device: DeviceIdentity, report: DeviceDeliveryRequest): Promise<DeviceDeliveryResult> {
  const now = ctx.now();
  const day = shanghaiDay(now);
  // The first result of a number counts; later ones in the same report are repeats.
  const outcomes = new Map<number, Outcome>();
  for (const r of report.results) {
    if (outcomes.has(r.id)) continue;
    const delivered = r.status === DeviceDeliveryStatus.delivered;
    outcomes.set(r.id, { state: delivered ? DeliveryState.delivered : DeliveryState.undelivered, reason: delivered ? null : r.reason || null });
  }
  const groups = Map.groupBy([...outcomes], ([, o]) => `${o.state}\u0000${o.reason ?? ''}`);

  return ctx.db.transaction().execute(async (trx) => {
    const byTask = new Map<number, Tally>();
    const result: DeviceDeliveryResult = { delivered: 0, undelivered: 0, ignored: 0 };
    for (const entries of groups.values()) {
      const { state, reason } = entries[0][1];
      const rows = await trx
        .updateTable('sync_task_number')
        .set({ deliveryState: state, deliveredAt: now, deliveryReason: reason })
        .where('id', 'in', entries.map(([id]) => id))
        .where('state', '=', sql.lit(TaskNumberState.sent))
        .where('machineCode', '=', device.machineCode)
        .where('deliveryState', 'is', null)
        .returning(['id', 'taskId'])
        .execute();
      for (const row of rows) {
        let tally = byTask.get(row.taskId);
        if (!tally) byTask.set(row.taskId, (tally = { delivered: 0, undelivered: 0 }));
        add(tally, state);
        add(result, state);
      }
    }
    result.ignored = report.results.length - result.delivered - result.undelivered;

    const byOwner = new Map<number, Tally>();
    for (const [taskId, tally] of [...byTask].sort(([a], [b]) => a - b)) {
      const task = await trx
        .updateTable('sync_task')
        .set((eb) => ({ deliveredNum: eb('deliveredNum', '+', tally.delivered), undeliveredNum: eb('undeliveredNum', '+', tally.undelivered) }))
        .where('taskId', '=', taskId)
        .returning('userId')
        .executeTakeFirstOrThrow();
      let owner = byOwner.get(task.userId);
      if (!owner) byOwner.set(task.userId, (owner = { delivered: 0, undelivered: 0 }));
      owner.delivered += tally.delivered;
      owner.undelivered += tally.undelivered;
    }
    for (const [userId, tally] of [...byOwner].sort(([a], [b]) => a - b)) {
      if (tally.delivered > 0) {
        await trx.updateTable('sys_user').set((eb) => ({ deliveredNum: eb('deliveredNum', '+', tally.delivered) })).where('userId', '=', userId).execute();
      }
      await trx
        .insertInto('sync_send_daily')
        .values({ userId, day, sendCount: 0, deliveredCount: tally.delivered, undeliveredCount: tally.undelivered })
        .onConflict((oc) => oc.columns(['userId', 'day']).doUpdateSet((eb) => ({
          deliveredCount: eb('sync_send_daily.deliveredCount', '+', eb.ref('excluded.deliveredCount')),
          undeliveredCount: eb('sync_send_daily.undeliveredCount', '+', eb.ref('excluded.undeliveredCount')),
        })))
        .execute();
    }
    return result;
  });
}
