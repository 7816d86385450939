// The front door of modules/sending/devices: what other areas, app.ts and the tools may import from it.
export type { recordDeliveries } from './delivery-report.ts';
export { authenticateDevice, deviceOf } from './device-auth.ts';
export type { DeviceIdentity } from './device-auth.ts';
export type { recordHeartbeat } from './heartbeat.ts';
export { deviceRoutes } from './routes.ts';
