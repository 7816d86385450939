// The front door of modules/platform/api-docs: what other areas, app.ts and the tools may import from it.
export { apiDocsRoutes } from './routes.ts';
