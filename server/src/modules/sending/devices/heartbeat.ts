import type { DeviceHeartbeatRequest } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { DeviceIdentity } from './device-auth.ts';

/**
 * Battery, signal and app version as last reported; the call itself marks the device seen. The state
 * text describes the device now, so every heartbeat replaces it (none: cleared).
 */
export async function recordHeartbeat(ctx: AppContext, device: DeviceIdentity, beat: DeviceHeartbeatRequest) {
  const now = ctx.now();
  await ctx.db
    .updateTable('sync_auth_code')
    .set({
      lastSeenAt: now,
      ...(beat.battery !== undefined ? { battery: beat.battery } : {}),
      ...(beat.signal !== undefined ? { signalLevel: beat.signal } : {}),
      ...(beat.appVersion ? { appVersion: beat.appVersion } : {}),
      deviceState: beat.state,
    })
    .where('id', '=', device.authCodeId)
    .execute();
  return { serverTime: now };
}
