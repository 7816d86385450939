// The front door of modules/pay/orders: what other areas, app.ts and the tools may import from it.
export { createOrder, newOrderNo } from './create.ts';
export { reportDispense } from './dispense.ts';
export { OrderMoveRelay } from './move-relay.ts';
export { notifyRoutes } from './notify-routes.ts';
export { refundOrder, refundSoon, refundableOf } from './refund.ts';
export { createPaymentRuntime } from './runtime.ts';
export type { PaymentRuntime } from './runtime.ts';
export { orderStatus } from './status.ts';
export { claimExpired, claimStuckRefunds, failStaleDispenses, startOrderSweeper, sweepOrders } from './sweeper.ts';
export type { OrderSweeper } from './sweeper.ts';
