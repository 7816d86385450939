// The front door of modules/pay/orders: what other areas, app.ts and the tools may import from it.
export { newOrderNo } from './create.ts';
export { OrderMoveRelay } from './move-relay.ts';
export { notifyRoutes } from './notify-routes.ts';
export { refundableOf } from './refund.ts';
export { createPaymentRuntime } from './runtime.ts';
export { paymentsOf } from './payments.ts';
export type { Payments } from './payments.ts';
export { orderStatus } from './status.ts';
export { claimExpired, claimStuckRefunds, failStaleDispenses } from './sweeper.ts';
export type { OrderSweeper } from './sweeper.ts';
