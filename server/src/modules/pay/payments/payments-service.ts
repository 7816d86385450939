import type { AppContext } from '../../../context.ts';
import { choreFailed, type BackgroundService } from '../../../http/background-services.ts';
import { startRollupFolding } from '../charts/index.ts';
import { simulatedPlatformService } from '../gateways/index.ts';
import { createPaymentRuntime, paymentsOf, type Payments } from '../orders/index.ts';
import { reconcileDeps, startReconcileJob } from '../reconcile/index.ts';

// The payment half's one service: the gateway registry, the orders' named edges and the work after an
// answer (Payments, handed to the routes that take payments), and its long-lived work, started and stopped
// in one place — the payment runtime's jobs, the simulated payment platform, the order sweeper, the daily
// 对账, the sales rollups' fold.

export type PaymentsService = { payments: Payments; services: BackgroundService[] };

export type PaymentsOptions = {
  /**
   * Whether this process sends again the simulated payment platform's unacknowledged notifications after it
   * listens (of several server processes, one does: main.ts).
   */
  resumesSimulatedPlatform?: boolean;
};

export function paymentsService(ctx: AppContext, options: PaymentsOptions = {}): PaymentsService {
  const runtime = createPaymentRuntime(ctx);
  const payments = paymentsOf(runtime);
  const services: BackgroundService[] = [
    // at close (services stop in the reverse order of their start): the runtime's jobs settle, then the platform stops
    simulatedPlatformService(runtime.simulated, options.resumesSimulatedPlatform !== false),
    { name: 'payment runtime', startOn: 'listen', start: () => ({ stop: () => runtime.settled() }) },
    {
      // unpaid orders past their time asked at the gateway, then paid or closed; automatic refunds and refunds
      // left under way by a crash (orders/sweeper.ts)
      name: 'order sweeper', startOn: 'listen',
      start: (log) => payments.startOrderSweeper({
        log,
        onSwept: (c) => { if (c.claimed + c.dispenseTimeouts + c.autoRefunds + c.refundsClaimed > 0) log.info({ swept: c }, 'order sweep'); },
        onError: choreFailed(log, 'order sweep failed'),
      }),
    },
    {
      name: '对账', startOn: 'listen',
      start: (log) => startReconcileJob(reconcileDeps(ctx, payments.gateways, (error) => log.error({ err: error }, '对账 failed')), ctx.config.pay.reconcileAt, (done) => {
        if (done.runs > 0) log.info({ reconcile: done }, `对账 ${done.day}: ${done.runs} runs, ${done.diffs} differences`);
      }),
    },
    {
      // the sales rollups' pending changes (数据可视化), folded now and then so that a chart's read has few to fold
      name: 'sales rollups fold', startOn: 'listen',
      start: (log) => startRollupFolding(ctx.db, { onError: choreFailed(log, 'sales rollups: fold failed') }),
    },
  ];
  return { payments, services };
}
