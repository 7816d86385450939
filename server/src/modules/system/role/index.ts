// The front door of modules/system/role: what other areas, app.ts and the tools may import from it.
export { roleRoutes } from './routes.ts';
