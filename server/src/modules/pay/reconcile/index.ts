// The front door of modules/pay/reconcile: what other areas, app.ts and the tools may import from it.
export { reconcileRoutes } from './routes.ts';
export { reconcileDeps } from './routes.ts';
export { startReconcileJob } from './job.ts';
