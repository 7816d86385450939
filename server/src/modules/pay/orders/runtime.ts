import type { AppContext } from '../../../context.ts';
import { type GatewayRegistry, gatewayRegistry } from '../gateways/index.ts';
import { ThrottledWarnings } from '../alarms/index.ts';

// The payment runtime of one server: its gateways (gateways/registry.ts) and the work it does after
// answering (an automatic refund). Made once by the payments service (pay/payments) when the app is built
// and handed to the routes that need it. The gateways' own work (their routes, what they do at start, under
// way, at shutdown) goes through the registry's lifecycle hooks.

/** Where the payment half writes its warnings and errors (a request's or the sweeper's logger). */
export type Log = { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

export type PaymentRuntime = {
  gateways: GatewayRegistry;
  /** Unsigned or unknown notifications: logged once a minute per kind, never stored. */
  strangers: ThrottledWarnings;
  /** Runs a job after the answer is sent; a failure goes to onError (the sweeper picks the work up again). */
  later: (job: () => Promise<unknown>, onError: (error: unknown) => void) => void;
  /** Waits for the jobs and the gateways' work under way (tests, shutdown). */
  settled: () => Promise<void>;
  /** Shutdown: waits for the jobs, then stops every gateway (they start nothing more). */
  stop: () => Promise<void>;
};

export function createPaymentRuntime(ctx: AppContext): PaymentRuntime {
  const gateways = gatewayRegistry(ctx);
  const pending = new Set<Promise<unknown>>();
  const settled = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
    await gateways.settled();
  };
  const runtime: PaymentRuntime = {
    gateways,
    strangers: new ThrottledWarnings(ctx.now),
    later: (job, onError) => {
      const running = Promise.resolve().then(job).catch(onError);
      pending.add(running);
      void running.finally(() => pending.delete(running));
    },
    settled,
    stop: async () => {
      await settled();
      await gateways.stop();
    },
  };
  return runtime;
}
