import { createOrder } from './create.ts';
import { reportDispense } from './dispense.ts';
import { handlePaidNotification } from './notify.ts';
import { refundOrder } from './refund.ts';
import { handleRefundNotification } from './refund-notify.ts';
import type { PaymentRuntime } from './runtime.ts';
import { startOrderSweeper, sweepOrders, sweepRefunds } from './sweeper.ts';

// The payment half as the rest of the server sees it: the runtime's gateways, simulated platform and
// lifecycle, and every named edge of an order that starts from outside — a machine's create and dispense
// report, a console refund, a gateway's notifications, a sweep — bound to the runtime. Made once by the
// payments service; the routes, the tests and the benches take this, never a runtime with a context beside it.

/** An order function with its runtime given. */
type Bound<F> = F extends (rt: PaymentRuntime, ...rest: infer A) => infer R ? (...rest: A) => R : never;

export type Payments = Pick<PaymentRuntime, 'gateways' | 'simulated' | 'settled' | 'stop'> & {
  createOrder: Bound<typeof createOrder>;
  reportDispense: Bound<typeof reportDispense>;
  refundOrder: Bound<typeof refundOrder>;
  handlePaidNotification: Bound<typeof handlePaidNotification>;
  handleRefundNotification: Bound<typeof handleRefundNotification>;
  sweepOrders: Bound<typeof sweepOrders>;
  sweepRefunds: Bound<typeof sweepRefunds>;
  startOrderSweeper: Bound<typeof startOrderSweeper>;
};

export function paymentsOf(rt: PaymentRuntime): Payments {
  return {
    gateways: rt.gateways, simulated: rt.simulated, settled: rt.settled, stop: rt.stop,
    createOrder: (...a) => createOrder(rt, ...a),
    reportDispense: (...a) => reportDispense(rt, ...a),
    refundOrder: (...a) => refundOrder(rt, ...a),
    handlePaidNotification: (...a) => handlePaidNotification(rt, ...a),
    handleRefundNotification: (...a) => handleRefundNotification(rt, ...a),
    sweepOrders: (...a) => sweepOrders(rt, ...a),
    sweepRefunds: (...a) => sweepRefunds(rt, ...a),
    startOrderSweeper: (...a) => startOrderSweeper(rt, ...a),
  };
}
