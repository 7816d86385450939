// The front door of modules/sending/authcodes: what other areas, app.ts and the tools may import from it.
export { authCodeRoutes } from './routes.ts';
