// The front door of modules/monitor/server: what other areas, app.ts and the tools may import from it.
export { BusinessStats, dayTotals } from './business-stats.ts';
export { databaseStats } from './database-stats.ts';
export { version } from './process-stats.ts';
export { RequestStats } from './request-stats.ts';
export { systemMonitorRoutes } from './routes.ts';
