import type { AppContext } from '../../context.ts';
import type { GatewayRegistry } from '../gateway/gateway.ts';
import { PayAccountError } from '../gateway/config-loader.ts';
import { payAccount } from '../gateway/pay-account-cache.ts';
import { gatewayRegistry } from '../gateway/registry.ts';
import { SimulatorGateway, type Deliver, type SimulatorOptions } from '../gateway/simulator/gateway.ts';
import { ThrottledWarnings } from '../pay-alarm/throttled-warnings.ts';

// The payment runtime of one server: its gateways (gateway/registry.ts: the simulator, WeChat Pay v2/v3 and
// Alipay) and the work it does after answering (an automatic refund). One per AppContext, made on first
// use. The simulator sends its notifications to this product's notify route; the notify plugin
// (order/notify-routes.ts) points `deliver` at the server itself.

/** Where the payment half writes its warnings and errors (a request's or the sweeper's logger). */
export type Log = { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

export type PaymentRuntime = {
  gateways: GatewayRegistry;
  simulator: SimulatorGateway;
  setDeliver: (deliver: Deliver) => void;
  /** Unsigned or unknown notifications: logged once a minute per kind, never stored. */
  strangers: ThrottledWarnings;
  /** Runs a job after the answer is sent; a failure goes to onError (the sweeper picks the work up again). */
  later: (job: () => Promise<unknown>, onError: (error: unknown) => void) => void;
  /** Waits for the jobs and notifications under way (tests, shutdown). */
  settled: () => Promise<void>;
};

const runtimes = new WeakMap<AppContext, PaymentRuntime>();

export function paymentRuntime(ctx: AppContext, settings: Partial<SimulatorOptions> = {}): PaymentRuntime {
  const known = runtimes.get(ctx);
  if (known) return known;
  let deliver: Deliver = async (url, body, headers) => {
    const answer = await fetch(url, { method: 'POST', body, headers });
    return answer.ok && ((await answer.json()) as { code?: string }).code === 'SUCCESS';
  };
  // its 支付配置 as the order module's (a config whose secrets do not open here: none, as when it is gone)
  const configOf = (id: number) => payAccount(ctx, id).catch((error: unknown) => {
    if (error instanceof PayAccountError) return undefined;
    throw error;
  });
  const simulator = new SimulatorGateway({ db: ctx.db, box: ctx.secrets, now: ctx.now, deliver: (...args) => deliver(...args), configOf, ...settings });
  const pending = new Set<Promise<unknown>>();
  const runtime: PaymentRuntime = {
    gateways: gatewayRegistry(simulator, { wechatpayBaseUrl: ctx.config.wechatpayBaseUrl, alipayGatewayUrl: ctx.config.alipayGatewayUrl }),
    simulator,
    setDeliver: (d) => void (deliver = d),
    strangers: new ThrottledWarnings(ctx.now),
    later: (job, onError) => {
      const running = Promise.resolve().then(job).catch(onError);
      pending.add(running);
      void running.finally(() => pending.delete(running));
    },
    settled: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
      await simulator.settled();
    },
  };
  runtimes.set(ctx, runtime);
  return runtime;
}
