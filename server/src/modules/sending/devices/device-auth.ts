import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { LockStatus, messages } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { hashToken } from '../../../http/token.ts';
import { unauthorized } from '../../../http/errors.ts';

const m = messages.device;
/** lastSeenAt is written at most this often per device, so busy devices do not add a write per call. */
const SEEN_WRITE_EVERY_MS = 10_000;

/** A device that presented a valid token: the authorization code that activated it. */
export type DeviceIdentity = {
  tokenHash: string;
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

type Remembered = { identity: DeviceIdentity; seenWrittenAt: number; loadedAt: number };

/**
 * Identities of devices seen lately, per server instance, by token hash: for the routes that check the
 * token and the owner again in their own first statement (pull, report; `deviceTokenRechecked`), so
 * their hot path does not spend a query on it. Other routes always read the database.
 */
const remembered = new WeakMap<AppContext, Map<string, Remembered>>();
const REMEMBER_MS = 5 * 60_000;
const REMEMBER_MAX = 100_000;

function rememberedOf(ctx: AppContext): Map<string, Remembered> {
  let map = remembered.get(ctx);
  if (!map) remembered.set(ctx, (map = new Map()));
  return map;
}

/** Drops what this instance remembers of a device token (its own statement found it no longer valid). */
export function forgetDevice(ctx: AppContext, device: DeviceIdentity): void {
  rememberedOf(ctx).delete(device.tokenHash);
}

/**
 * Resolves a device token (from the Authorization header only); refuses unknown tokens and locked
 * owners. With `rechecked`, a remembered identity is answered without a query: the route checks the
 * token and the owner again itself.
 */
export async function authenticateDevice(ctx: AppContext, token: string | undefined, options: { rechecked?: boolean } = {}): Promise<DeviceIdentity> {
  if (!token) throw unauthorized(m.tokenInvalid);
  const tokenHash = hashToken(token);
  const now = ctx.now();
  const known = rememberedOf(ctx);
  const hit = options.rechecked ? known.get(tokenHash) : undefined;
  if (hit && now - hit.loadedAt < REMEMBER_MS) {
    if (now - hit.seenWrittenAt >= SEEN_WRITE_EVERY_MS) {
      hit.seenWrittenAt = now;
      await markSeen(ctx, hit.identity.authCodeId, now);
    }
    return hit.identity;
  }
  const row = await ctx.db
    .selectFrom('sync_auth_code as c')
    .innerJoin('sys_user as u', 'u.userId', 'c.authUserId')
    .select(['c.id', 'c.authCode', 'c.machineCode', 'c.machineName', 'c.lastSeenAt', 'u.userId', 'u.userName', 'u.isLock'])
    .where('c.tokenHash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || !row.machineCode) throw unauthorized(m.tokenInvalid);
  if (row.isLock === LockStatus.locked) throw unauthorized(messages.login.locked);
  let seenWrittenAt = row.lastSeenAt == null ? -Infinity : Number(row.lastSeenAt);
  if (now - seenWrittenAt >= SEEN_WRITE_EVERY_MS) {
    seenWrittenAt = now;
    await markSeen(ctx, row.id, now);
  }
  const identity: DeviceIdentity = {
    tokenHash, authCodeId: row.id, authCode: row.authCode, machineCode: row.machineCode, machineName: row.machineName ?? '',
    ownerId: row.userId, ownerName: row.userName,
  };
  if (options.rechecked) {
    if (known.size >= REMEMBER_MAX) known.clear();
    known.set(tokenHash, { identity, seenWrittenAt, loadedAt: now });
  }
  return identity;
}

async function markSeen(ctx: AppContext, codeId: number, now: number): Promise<void> {
  await ctx.db.updateTable('sync_auth_code').set({ lastSeenAt: now }).where('id', '=', codeId).execute();
}

/** The device of a route that declared access 'device'. */
export function deviceOf(request: FastifyRequest): DeviceIdentity {
  if (!request.device) throw unauthorized(m.tokenInvalid);
  return request.device;
}
