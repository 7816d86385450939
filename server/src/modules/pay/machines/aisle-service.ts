import type { Kysely } from 'kysely';
import { aisleNoOf, fill, MachineStatus, messages, type AisleGridCreate, type AisleSave } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Database } from '../../../db/schema.ts';
import { assertDeptInScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, notFound } from '../../../http/errors.ts';
import { isCheckViolation } from './db-errors.ts';
import { machineInScope } from './machine-service.ts';

const a = messages.aisle;

// 货道信息: a machine's aisles. The code is the layer's letter and the column's number (A1), unique per
// machine like the cell (two unique indexes). The database keeps 0 ≤ stock ≤ capacity and price ≥ 0
// (check constraints, migration 0011); the contract refuses the same first, so a violation reaching the
// database is a race and answers the same message.

function refusal(error: unknown, aisleNo: string): unknown {
  if (isUniqueViolation(error)) return new AppError(fill(a.aisleTaken, { aisleNo }));
  if (isCheckViolation(error)) return new AppError(a.stockOverCapacity);
  return error;
}

/** 新增 / 编辑 one aisle of a machine in the caller's scope. */
export async function saveAisle(ctx: AppContext, caller: Access, input: AisleSave): Promise<{ aisleId: number; aisleNo: string }> {
  const machine = await machineInScope(ctx.db, caller, input.machineId);
  const now = ctx.now();
  const aisleNo = aisleNoOf(input.layer, input.aisleColumn);
  const fields = {
    aisleNo, layer: input.layer, aisleColumn: input.aisleColumn, goodsNo: input.goodsNo, goodsName: input.goodsName,
    price: input.price, capacity: input.capacity, stock: input.stock, status: input.status, editUser: caller.userName, editTime: now,
  };
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      if (input.aisleId !== undefined) {
        const own = await trx.selectFrom('pay_aisle').select('aisleId').where('aisleId', '=', input.aisleId).where('machineId', '=', machine.machineId).executeTakeFirst();
        if (!own) throw notFound();
      }
      const taken = await trx.selectFrom('pay_aisle').select('aisleId').where('machineId', '=', machine.machineId).where('aisleNo', '=', aisleNo)
        .$if(input.aisleId !== undefined, (qb) => qb.where('aisleId', '!=', input.aisleId!))
        .executeTakeFirst();
      if (taken) throw new AppError(fill(a.aisleTaken, { aisleNo }));
      if (input.aisleId === undefined) {
        const row = await trx
          .insertInto('pay_aisle')
          .values({ ...fields, machineId: machine.machineId, addUser: caller.userName, addTime: now })
          .returning('aisleId')
          .executeTakeFirstOrThrow();
        return { aisleId: row.aisleId, aisleNo };
      }
      const result = await trx.updateTable('pay_aisle').set(fields).where('aisleId', '=', input.aisleId).where('machineId', '=', machine.machineId).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw notFound();
      return { aisleId: input.aisleId, aisleNo };
    });
  } catch (error) {
    throw refusal(error, aisleNo);
  }
}

/** 批量生成货道: every cell of layers × columns the machine lacks, empty (stock 0) at the default capacity and price; existing cells stay as they are. */
export async function createAisleGrid(ctx: AppContext, caller: Access, input: AisleGridCreate): Promise<{ created: number; kept: number; machineNo: string }> {
  const machine = await machineInScope(ctx.db, caller, input.machineId);
  const now = ctx.now();
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('pay_aisle').select(['layer', 'aisleColumn', 'aisleNo']).where('machineId', '=', machine.machineId).execute();
      const taken = new Set(existing.flatMap((r) => [`${r.layer}:${r.aisleColumn}`, r.aisleNo]));
      const rows = [];
      let kept = 0;
      for (let layer = 1; layer <= input.layers; layer++) {
        for (let column = 1; column <= input.columns; column++) {
          const aisleNo = aisleNoOf(layer, column);
          if (taken.has(`${layer}:${column}`) || taken.has(aisleNo)) {
            kept++;
            continue;
          }
          rows.push({
            machineId: machine.machineId, aisleNo, layer, aisleColumn: column, price: input.price, capacity: input.capacity, stock: 0,
            status: MachineStatus.enabled, addUser: caller.userName, editUser: caller.userName, addTime: now, editTime: now,
          });
        }
      }
      for (let i = 0; i < rows.length; i += 200) await trx.insertInto('pay_aisle').values(rows.slice(i, i + 200)).execute();
      return { created: rows.length, kept, machineNo: machine.machineNo };
    });
  } catch (error) {
    // Another 批量生成 of the same machine at once: nothing of this one is written.
    throw refusal(error, '');
  }
}

/** 补满: stock up to capacity, of the named aisles or (none named) of every enabled aisle of the machine. Answers how many changed. */
export async function restockAisles(ctx: AppContext, caller: Access, machineId: number, aisleIds: number[]): Promise<{ count: number; machineNo: string }> {
  const machine = await machineInScope(ctx.db, caller, machineId);
  const unique = [...new Set(aisleIds)];
  return ctx.db.transaction().execute(async (trx) => {
    if (unique.length > 0) {
      const found = await trx.selectFrom('pay_aisle').select('aisleId').where('machineId', '=', machine.machineId).where('aisleId', 'in', unique).execute();
      if (found.length !== unique.length) throw notFound();
    }
    const result = await trx
      .updateTable('pay_aisle')
      .set((eb) => ({ stock: eb.ref('capacity'), editUser: caller.userName, editTime: ctx.now() }))
      .where('machineId', '=', machine.machineId)
      .where((eb) => eb('stock', '<', eb.ref('capacity')))
      .$if(unique.length > 0, (qb) => qb.where('aisleId', 'in', unique))
      .$if(unique.length === 0, (qb) => qb.where('status', '=', MachineStatus.enabled))
      .executeTakeFirst();
    return { count: Number(result.numUpdatedRows), machineNo: machine.machineNo };
  });
}

/** The named aisles with their machines' companies, all in the caller's scope (else nothing happens). */
async function aislesInScope(db: Kysely<Database>, caller: Access, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = await db
    .selectFrom('pay_aisle as pa')
    .innerJoin('pay_machine as pm', 'pm.machineId', 'pa.machineId')
    .select(['pa.aisleId', 'pa.aisleNo', 'pm.machineNo', 'pm.deptId'])
    .where('pa.aisleId', 'in', unique)
    .execute();
  if (rows.length !== unique.length) throw notFound();
  for (const row of rows) assertDeptInScope(caller.deptScope, row.deptId);
  return rows;
}

/** 启用 / 停用 aisles: a disabled aisle sells nothing. Answers the codes changed (machineNo:aisleNo). */
export async function setAisleStatus(ctx: AppContext, caller: Access, ids: number[], status: MachineStatus): Promise<string[]> {
  return ctx.db.transaction().execute(async (trx) => {
    const rows = await aislesInScope(trx, caller, ids);
    await trx.updateTable('pay_aisle').set({ status, editUser: caller.userName, editTime: ctx.now() }).where('aisleId', 'in', rows.map((r) => r.aisleId)).execute();
    return rows.map((r) => `${r.machineNo}:${r.aisleNo}`);
  });
}

/** 删除, all or none. Orders keep the aisle's code (pay_order.aisleNo), so nothing refers to the row. */
export async function deleteAisles(ctx: AppContext, caller: Access, ids: number[]): Promise<string[]> {
  return ctx.db.transaction().execute(async (trx) => {
    const rows = await aislesInScope(trx, caller, ids);
    await trx.deleteFrom('pay_aisle').where('aisleId', 'in', rows.map((r) => r.aisleId)).execute();
    return rows.map((r) => `${r.machineNo}:${r.aisleNo}`);
  });
}
