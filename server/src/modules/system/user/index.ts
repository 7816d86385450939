// The front door of modules/system/user: what other areas, app.ts and the tools may import from it.
export { listUsers } from './queries.ts';
export { userRoutes } from './routes.ts';
