// The front door of modules/sending/replies: what other areas, app.ts and the tools may import from it.
export { replyRoutes } from './routes.ts';
