// The front door of modules/system/auth: what other areas, app.ts and the tools may import from it.
export { loadAccess } from './access.ts';
export { hashPassword, randomPassword } from './password.ts';
export { authRoutes } from './routes.ts';
