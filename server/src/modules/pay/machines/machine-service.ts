import type { Kysely } from 'kysely';
import { fill, messages, type MachineKeyAnswer, type MachineSave, type MachineStatus } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Database } from '../../../db/schema.ts';
import { assertDeptInScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, notFound } from '../../../http/errors.ts';
import { newTerminalKey, sealTerminalKey } from './terminal-key.ts';

const m = messages.machine;

type MachineRef = { machineId: number; machineNo: string; deptId: number };

/** A machine the caller may manage: 404 when it does not exist, 403 when it belongs to a company outside the scope. */
export async function machineInScope(db: Kysely<Database>, caller: Access, machineId: number): Promise<MachineRef> {
  const row = await db.selectFrom('pay_machine').select(['machineId', 'machineNo', 'deptId']).where('machineId', '=', machineId).executeTakeFirst();
  if (!row) throw notFound();
  assertDeptInScope(caller.deptScope, row.deptId);
  return row;
}

const hasOrders = async (db: Kysely<Database>, machineNo: string) =>
  (await db.selectFrom('pay_order').select('orderId').where('machineNo', '=', machineNo).limit(1).executeTakeFirst()) !== undefined;
const hasTerminalConfigs = async (db: Kysely<Database>, machineNo: string) =>
  (await db.selectFrom('pay_terminal_config').select('tcId').where('machineNo', '=', machineNo).limit(1).executeTakeFirst()) !== undefined;

/**
 * 新增 / 编辑. A new machine gets its terminal key, answered in clear this once. The machine number is
 * what orders and 终端支付配置 rows name: it stays while they exist, and so does the company while
 * terminal configs (bound to that company's 支付配置) exist.
 */
export async function saveMachine(ctx: AppContext, caller: Access, input: MachineSave): Promise<{ machineId: number; created?: MachineKeyAnswer }> {
  const now = ctx.now();
  const deptId = input.deptId ?? caller.deptId;
  if (deptId == null) throw new AppError(m.deptRequired);
  assertDeptInScope(caller.deptScope, deptId);
  if (!(await ctx.db.selectFrom('sys_dept').select('deptId').where('deptId', '=', deptId).executeTakeFirst())) throw new AppError(m.deptNotFound);
  const fields = {
    machineNo: input.machineNo, machineName: input.machineName, deptId, address: input.address, status: input.status,
    editUser: caller.userName, editTime: now,
  };
  let savedOver: string | undefined; // the number an edited machine had: a terminal call's cache may hold it
  try {
    const saved = await ctx.db.transaction().execute(async (trx) => {
      const existing = input.machineId === undefined ? undefined : await machineInScope(trx, caller, input.machineId);
      const taken = await trx.selectFrom('pay_machine').select('machineId').where('machineNo', '=', input.machineNo)
        .$if(input.machineId !== undefined, (qb) => qb.where('machineId', '!=', input.machineId!))
        .executeTakeFirst();
      if (taken) throw new AppError(m.machineNoTaken);
      if (existing === undefined) {
        const terminalKey = newTerminalKey();
        const row = await trx
          .insertInto('pay_machine')
          .values({ ...fields, terminalKey: sealTerminalKey(ctx.secrets, terminalKey), lastSeenAt: null, addUser: caller.userName, addTime: now })
          .returning('machineId')
          .executeTakeFirstOrThrow();
        return { machineId: row.machineId, created: { machineId: row.machineId, machineNo: input.machineNo, terminalKey } };
      }
      if (existing.machineNo !== input.machineNo && ((await hasOrders(trx, existing.machineNo)) || (await hasTerminalConfigs(trx, existing.machineNo)))) {
        throw new AppError(m.machineNoLocked);
      }
      if (existing.deptId !== deptId && (await hasTerminalConfigs(trx, existing.machineNo))) throw new AppError(m.deptLocked);
      await trx.updateTable('pay_machine').set(fields).where('machineId', '=', existing.machineId).execute();
      savedOver = existing.machineNo;
      return { machineId: existing.machineId };
    });
    if (savedOver !== undefined) await forgetMachines(ctx, [savedOver, input.machineNo]);
    return saved;
  } catch (error) {
    // Two saves of one number at once: the unique index decides, the loser gets the same message.
    if (isUniqueViolation(error)) throw new AppError(m.machineNoTaken);
    throw error;
  }
}

/** 删除, all or none: a machine with orders (they keep its number) or 终端支付配置 rows stays, and so do the others named. */
export async function deleteMachines(ctx: AppContext, caller: Access, ids: number[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('pay_machine').select(['machineId', 'machineNo', 'deptId']).where('machineId', 'in', unique).execute();
    if (rows.length !== unique.length) throw notFound();
    for (const row of rows) assertDeptInScope(caller.deptScope, row.deptId);
    for (const row of rows) {
      if (await hasOrders(trx, row.machineNo)) throw new AppError(fill(m.hasOrders, { machineNo: row.machineNo }));
      if (await hasTerminalConfigs(trx, row.machineNo)) throw new AppError(fill(m.hasTerminalConfigs, { machineNo: row.machineNo }));
    }
    await trx.deleteFrom('pay_aisle').where('machineId', 'in', unique).execute();
    await trx.deleteFrom('pay_machine').where('machineId', 'in', unique).execute();
    return rows.map((r) => r.machineNo);
  });
  await forgetMachines(ctx, deleted);
  return deleted;
}

/** A terminal call's signature check reads machines through ctx.machineCache: each write drops what it changed, once committed. */
async function forgetMachines(ctx: AppContext, machineNos: string[]): Promise<void> {
  for (const machineNo of new Set(machineNos)) await ctx.machineCache.invalidate(machineNo);
}

/** 启用 / 停用. */
export async function setMachineStatus(ctx: AppContext, caller: Access, machineId: number, status: MachineStatus): Promise<string> {
  const machine = await machineInScope(ctx.db, caller, machineId);
  await ctx.db.updateTable('pay_machine').set({ status, editUser: caller.userName, editTime: ctx.now() }).where('machineId', '=', machineId).execute();
  await forgetMachines(ctx, [machine.machineNo]);
  return machine.machineNo;
}

/** 重置密钥: a new key replaces the old one at once; answered in clear this once. */
export async function resetTerminalKey(ctx: AppContext, caller: Access, machineId: number): Promise<MachineKeyAnswer> {
  const machine = await machineInScope(ctx.db, caller, machineId);
  const terminalKey = newTerminalKey();
  await ctx.db
    .updateTable('pay_machine')
    .set({ terminalKey: sealTerminalKey(ctx.secrets, terminalKey), editUser: caller.userName, editTime: ctx.now() })
    .where('machineId', '=', machineId)
    .execute();
  await forgetMachines(ctx, [machine.machineNo]);
  return { machineId, machineNo: machine.machineNo, terminalKey };
}
