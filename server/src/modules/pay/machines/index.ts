// The front door of modules/pay/machines: what other areas, app.ts and the tools may import from it.
export type { createAisleGrid, saveAisle } from './aisle-service.ts';
export { seedDemoPayments } from './demo-payments.ts';
export type { saveMachine } from './machine-service.ts';
export { machineRoutes } from './routes.ts';
export { newTerminalKey, openTerminalKey, sealTerminalKey } from './terminal-key.ts';
