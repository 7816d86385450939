// The front door of modules/sending/tasks: what other areas, app.ts and the tools may import from it.
export type { generateQrImage } from './qr.ts';
export { listTasks } from './queries.ts';
export { taskRoutes } from './routes.ts';
export { ownerMaySeeFile, taskFileVisible } from './task-files.ts';
export { importNumbers } from './upload-numbers.ts';
export type { ImportResult } from './upload-numbers.ts';
