// The front door of modules/sending/statistics: what other areas, app.ts and the tools may import from it.
export { statisticsRoutes } from './routes.ts';
