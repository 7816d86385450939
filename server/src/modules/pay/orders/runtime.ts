import type { AppContext } from '../../../context.ts';
import { type GatewayRegistry, gatewayRegistry, readablePayAccount, SimulatedPlatform } from '../gateways/index.ts';
import { ThrottledWarnings } from '../alarms/index.ts';

// The payment runtime of one server: its context, its gateways (gateways/registry.ts), the simulated payment
// platform the simulator gateway asks (its remote side, run in this process), and the work it does after
// answering (an automatic refund). Made once by the payments service (pay/payments) when the app is built;
// the order functions take it as their one argument of state, and the rest of the server reaches them through
// Payments (payments.ts) made from it.

/** Where the payment half writes its warnings and errors (a request's or the sweeper's logger). */
export type Log = { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

export type PaymentRuntime = {
  ctx: AppContext;
  gateways: GatewayRegistry;
  /** The simulator gateway's remote side: its books, its 支付模拟 page, its notifications to this server. */
  simulated: SimulatedPlatform;
  /** Unsigned or unknown notifications: logged once a minute per kind, never stored. */
  strangers: ThrottledWarnings;
  /** Runs a job after the answer is sent; a failure goes to onError (the sweeper picks the work up again). */
  later: (job: () => Promise<unknown>, onError: (error: unknown) => void) => void;
  /** Waits for the jobs and the simulated platform's notifications under way (tests, shutdown). */
  settled: () => Promise<void>;
  /** Shutdown: waits for the jobs, then stops the simulated platform (it sends nothing more). */
  stop: () => Promise<void>;
};

export function createPaymentRuntime(ctx: AppContext): PaymentRuntime {
  const simulated = new SimulatedPlatform({ db: ctx.db, box: ctx.secrets, now: ctx.now, configOf: (id) => readablePayAccount(ctx, id) });
  const pending = new Set<Promise<unknown>>();
  const settled = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
    await simulated.settled();
  };
  return {
    ctx,
    gateways: gatewayRegistry(ctx, simulated),
    simulated,
    strangers: new ThrottledWarnings(ctx.now),
    later: (job, onError) => {
      const running = Promise.resolve().then(job).catch(onError);
      pending.add(running);
      void running.finally(() => pending.delete(running));
    },
    settled,
    stop: async () => {
      await settled();
      await simulated.stop();
    },
  };
}
