import { fill, messages, type TerminalConfigSave } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { dialectOf } from '../../../db/dialect.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import { assertDeptInScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, notFound } from '../../../http/errors.ts';
import { machineOfCaller } from './queries.ts';

const m = messages.terminalConfig;

/**
 * Binds a machine and a pay type to a 支付配置: the machine exists and is of the caller's companies,
 * the config is of the machine's company and of that pay type, one row per (machineNo, payType). The
 * company is the machine's.
 */
export async function saveTerminalConfig(ctx: AppContext, caller: Access, input: TerminalConfigSave): Promise<number> {
  const now = ctx.now();
  const duplicate = new AppError(fill(m.duplicate, { machineNo: input.machineNo }));
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      if (input.tcId !== undefined) {
        const stored = await trx.selectFrom('pay_terminal_config').select(['tcId', 'deptId']).where('tcId', '=', input.tcId).executeTakeFirst();
        if (!stored) throw notFound();
        assertDeptInScope(caller.deptScope, stored.deptId);
      }
      const machine = await machineOfCaller(trx, caller, input.machineNo);
      // Locked (PostgreSQL) until the binding is written: a delete of the config waits, then sees it bound.
      const config = await trx
        .selectFrom('pay_config')
        .select(['id', 'deptId', 'payType'])
        .where('id', '=', input.configId)
        .$if(dialectOf(trx) === 'postgres', (qb) => qb.forShare())
        .executeTakeFirst();
      if (!config) throw new AppError(m.configNotFound);
      if (config.deptId !== machine.deptId) throw new AppError(m.configOtherCompany);
      if (config.payType !== input.payType) throw new AppError(m.configPayType);
      const taken = await trx
        .selectFrom('pay_terminal_config')
        .select('tcId')
        .where('machineNo', '=', input.machineNo)
        .where('payType', '=', input.payType)
        .$if(input.tcId !== undefined, (qb) => qb.where('tcId', '!=', input.tcId!))
        .executeTakeFirst();
      if (taken) throw duplicate;
      const fields = {
        deptId: machine.deptId, machineNo: input.machineNo, payType: input.payType, configId: input.configId, configName: input.configName,
        payOpen: input.payOpen, posNo: input.posNo, editUser: caller.userName, editTime: now,
      };
      if (input.tcId === undefined) {
        const row = await trx.insertInto('pay_terminal_config').values({ ...fields, addUser: caller.userName, addTime: now }).returning('tcId').executeTakeFirstOrThrow();
        return row.tcId;
      }
      await trx.updateTable('pay_terminal_config').set(fields).where('tcId', '=', input.tcId).execute();
      return input.tcId;
    });
  } catch (error) {
    // Two saves of the same (machineNo, payType) at once: the unique index decides, the loser hears why.
    if (isUniqueViolation(error)) throw duplicate;
    throw error;
  }
}

/** All or none: an id that does not exist or lies outside the caller's companies refuses the whole request. */
export async function deleteTerminalConfigs(ctx: AppContext, caller: Access, ids: number[]): Promise<number> {
  const unique = [...new Set(ids)];
  return ctx.db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('pay_terminal_config').select(['tcId', 'deptId']).where('tcId', 'in', unique).execute();
    if (rows.length !== unique.length) throw notFound();
    for (const row of rows) assertDeptInScope(caller.deptScope, row.deptId);
    await trx.deleteFrom('pay_terminal_config').where('tcId', 'in', unique).execute();
    return unique.length;
  });
}
