// The front door of modules/system/permission: what other areas, app.ts and the tools may import from it.
export { permissionRoutes } from './routes.ts';
export { assertMayChangeGrants, heldCodes } from './service.ts';
