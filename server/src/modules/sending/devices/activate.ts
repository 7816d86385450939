import { AuthCodeUseStatus, formatDateTime, messages, type DeviceActivateRequest, type DeviceActivation } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import { hashToken } from '../../../http/token.ts';
import { AppError } from '../../../http/errors.ts';
import { activationFailed, beginActivation, releaseActivation, type ActivationAttempt } from './activate-throttle.ts';
import { newDeviceToken } from './device-auth.ts';

const m = messages.device;

/**
 * Binds a device to an authorization code and answers a fresh token (docs/device-protocol.md §1).
 * Same code + same device again: a new token, nothing else changes. A device bound to an older code
 * moves to the new one; the old code stays used and keeps no device. Throttled per address and per
 * code (activate-throttle.ts); an unknown code and one bound to another device answer the same.
 */
export async function activateDevice(ctx: AppContext, input: DeviceActivateRequest, ip: string): Promise<DeviceActivation> {
  const attempt = await beginActivation(ctx, input.authCode, ip);
  try {
    const activation = await bind(ctx, input, attempt);
    await releaseActivation(ctx, attempt);
    return activation;
  } catch (error) {
    // A refusal of the throttle is no failure; a wrong code is (anything else thrown is a bug: given back too).
    if (error instanceof AppError && error.statusCode === 400) await activationFailed(ctx, attempt);
    else await releaseActivation(ctx, attempt);
    throw error;
  }
}

async function bind(ctx: AppContext, input: DeviceActivateRequest, attempt: ActivationAttempt): Promise<DeviceActivation> {
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
      // A code guessed at too often answers only the device it is bound to.
      if (attempt.codeRefused && (!code || code.machineCode !== input.machineCode)) throw attempt.codeRefused;
      if (!code || (code.machineCode && code.machineCode !== input.machineCode)) throw new AppError(m.authCodeInvalid);
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
          // Re-activation replaces what the device declared; nothing declared: everything (older clients).
          capabilities: input.capabilities.length > 0 ? input.capabilities.join(',') : null,
          tokenHash: hashToken(token),
          activatedAt: eb.fn.coalesce('activatedAt', eb.val(now)),
          lastSeenAt: now,
          editTime: now,
        }))
        .where('id', '=', code.id)
        // A concurrent activation of the same code by another device must not overwrite the winner.
        .where((eb) => eb.or([eb('machineCode', 'is', null), eb('machineCode', '=', input.machineCode)]))
        .executeTakeFirst();
      if (Number(bound.numUpdatedRows) === 0) throw new AppError(m.authCodeInvalid);
      return {
        deviceToken: token, machineCode: input.machineCode, machineName: input.machineName, userName: code.userName,
        dueNum: Number(code.dueNum), dueDateStr: formatDateTime(Number(code.dueDate)),
      };
    });
  } catch (error) {
    // Two codes activating the same machineCode at once: the unique index lets one through.
    if (isUniqueViolation(error)) throw new AppError(m.authCodeInvalid);
    throw error;
  }
}
