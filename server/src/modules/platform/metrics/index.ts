// The front door of modules/platform/metrics: what other areas, app.ts and the tools may import from it.
export { metricsRoutes } from './routes.ts';
