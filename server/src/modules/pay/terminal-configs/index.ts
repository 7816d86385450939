// The front door of modules/pay/terminal-configs: what other areas, app.ts and the tools may import from it.
export { terminalConfigRoutes } from './routes.ts';
