import { AuthCodeUseStatus, formatDateTime, messages, type DeviceActivateRequest, type DeviceActivation } from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { hashToken } from '../../http/token.ts';
import { AppError } from '../../http/errors.ts';
import { newDeviceToken } from './device-auth.ts';

const m = messages.device;

/**
 * Binds a device to an authorization code and answers a fresh token (docs/device-protocol.md §1).
 * Same code + same device again: a new token, nothing else changes. A device bound to an older code
 * moves to the new one; the old code stays used and keeps no device.
 */
export async function activateDevice(ctx: AppContext, input: DeviceActivateRequest): Promise<DeviceActivation> {
  const now = ctx.now();
  const token = newDeviceToken();
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const code = await trx
        .selectFrom('sync_auth_code as c')
        .innerJoin('sys_user as u', 'u.userId', 'c.authUserId')
        .select(['c.id', 'c.machineCode', 'c.dueNum', 'c.dueDate', 'u.userName'])
        .where('c.authCode', '=', input.authCode)
        .executeTakeFirst();
      if (!code) throw new AppError(m.authCodeUnknown);
      if (code.machineCode && code.machineCode !== input.machineCode) throw new AppError(m.authCodeTakenByOther);
      if (Number(code.dueDate) <= now) throw new AppError(m.authCodeExpired);

      // The device's earlier code (a new purchase) lets it go before the unique index sees it twice.
      await trx.updateTable('sync_auth_code')
        .set({ machineCode: null, tokenHash: null, editTime: now })
        .where('machineCode', '=', input.machineCode)
        .where('id', '<>', code.id)
        .execute();
      const bound = await trx
        .updateTable('sync_auth_code')
        .set((eb) => ({
          useStatus: AuthCodeUseStatus.used,
          machineCode: input.machineCode,
          machineName: input.machineName,
          tokenHash: hashToken(token),
          activatedAt: eb.fn.coalesce('activatedAt', eb.val(now)),
          lastSeenAt: now,
          editTime: now,
        }))
        .where('id', '=', code.id)
        // A concurrent activation of the same code by another device must not overwrite the winner.
        .where((eb) => eb.or([eb('machineCode', 'is', null), eb('machineCode', '=', input.machineCode)]))
        .executeTakeFirst();
      if (Number(bound.numUpdatedRows) === 0) throw new AppError(m.authCodeTakenByOther);
      return {
        deviceToken: token, machineCode: input.machineCode, machineName: input.machineName, userName: code.userName,
        dueNum: Number(code.dueNum), dueDateStr: formatDateTime(Number(code.dueDate)),
      };
    });
  } catch (error) {
    // Two codes activating the same machineCode at once: the unique index lets one through.
    if (isUniqueViolation(error)) throw new AppError(m.authCodeTakenByOther);
    throw error;
  }
}
