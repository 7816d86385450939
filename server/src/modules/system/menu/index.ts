// The front door of modules/system/menu: what other areas, app.ts and the tools may import from it.
export { menuRoutes } from './routes.ts';
