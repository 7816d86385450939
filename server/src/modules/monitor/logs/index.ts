// The front door of modules/monitor/logs: what other areas, app.ts and the tools may import from it.
export { listLoginLogs, listOperLogs } from './queries.ts';
export { monitorRoutes } from './routes.ts';
