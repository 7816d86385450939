// The front door of modules/system/variable: what other areas, app.ts and the tools may import from it.
export { variableRoutes } from './routes.ts';
