// The front door of modules/pay/configs: what other areas, app.ts and the tools may import from it.
export { payConfigRoutes } from './routes.ts';
