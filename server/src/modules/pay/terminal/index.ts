// The front door of modules/pay/terminal: what other areas, app.ts and the tools may import from it.
export { authenticateTerminal, signTerminal } from './auth.ts';
export type { heartbeat } from './heartbeat.ts';
export { terminalRoutes } from './routes.ts';
