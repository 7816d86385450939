// The front door of modules/pay/payments: what other areas, app.ts and the tools may import from it.
export { paymentsService } from './payments-service.ts';
export type { PaymentsOptions, PaymentsService } from './payments-service.ts';
