// The front door of modules/system/dept: what other areas, app.ts and the tools may import from it.
export { deptChoices } from './queries.ts';
export { deptRoutes } from './routes.ts';
