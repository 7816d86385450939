// The front door of modules/platform/health: what other areas, app.ts and the tools may import from it.
export { healthRoutes } from './routes.ts';
