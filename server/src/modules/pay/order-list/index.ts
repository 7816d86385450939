// The front door of modules/pay/order-list: what other areas, app.ts and the tools may import from it.
export { listOrders } from './queries.ts';
export { orderListRoutes } from './routes.ts';
