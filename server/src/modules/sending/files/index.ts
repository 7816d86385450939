// The front door of modules/sending/files: what other areas, app.ts and the tools may import from it.
export { fileRoutes } from './routes.ts';
export { sendStoredFile } from './send-file.ts';
export { loadStoredFile } from './service.ts';
