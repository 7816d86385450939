import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { LockStatus, messages } from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import { hashToken } from '../../http/access-check.ts';
import { unauthorized } from '../../http/errors.ts';

const m = messages.device;
/** lastSeenAt is written at most this often per device, so busy devices do not add a write per call. */
const SEEN_WRITE_EVERY_MS = 10_000;

/** A device that presented a valid token: the authorization code that activated it. */
export type DeviceIdentity = {
  authCodeId: number;
  authCode: string;
  machineCode: string;
  machineName: string;
  ownerId: number;
  ownerName: string;
};

declare module 'fastify' {
  interface FastifyRequest {
    device?: DeviceIdentity;
  }
}

export const newDeviceToken = () => `dv_${randomBytes(24).toString('base64url')}`;

/** Resolves a device token (any of the places a token may ride); refuses unknown tokens and locked owners. */
export async function authenticateDevice(ctx: AppContext, token: string | undefined): Promise<DeviceIdentity> {
  if (!token) throw unauthorized(m.tokenInvalid);
  const row = await ctx.db
    .selectFrom('sync_auth_code as c')
    .innerJoin('sys_user as u', 'u.userId', 'c.authUserId')
    .select(['c.id', 'c.authCode', 'c.machineCode', 'c.machineName', 'c.lastSeenAt', 'u.userId', 'u.userName', 'u.isLock'])
    .where('c.tokenHash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || !row.machineCode) throw unauthorized(m.tokenInvalid);
  if (row.isLock === LockStatus.locked) throw unauthorized(messages.login.locked);
  const now = ctx.now();
  if (row.lastSeenAt == null || now - Number(row.lastSeenAt) >= SEEN_WRITE_EVERY_MS) {
    await ctx.db.updateTable('sync_auth_code').set({ lastSeenAt: now }).where('id', '=', row.id).execute();
  }
  return {
    authCodeId: row.id, authCode: row.authCode, machineCode: row.machineCode, machineName: row.machineName ?? '',
    ownerId: row.userId, ownerName: row.userName,
  };
}

/** The device of a route that declared access 'device'. */
export function deviceOf(request: FastifyRequest): DeviceIdentity {
  if (!request.device) throw unauthorized(m.tokenInvalid);
  return request.device;
}
