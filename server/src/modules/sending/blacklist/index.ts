// The front door of modules/sending/blacklist: what other areas, app.ts and the tools may import from it.
export { blacklistRoutes } from './routes.ts';
export type { deleteFromBlacklist } from './service.ts';
