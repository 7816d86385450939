import type { AppContext } from '../../context.ts';
import { GatewayRegistry } from '../gateway/gateway.ts';
import { SimulatorGateway, type Deliver, type SimulatorOptions } from '../gateway/simulator.ts';

// The payment runtime of one server: its gateways (the simulator now; WeChat Pay and Alipay later, behind
// the same interface). One per AppContext, made on first use. The simulator sends its notifications to
// this product's notify route; the terminal plugin points `deliver` at the server itself.

export type PaymentRuntime = { gateways: GatewayRegistry; simulator: SimulatorGateway; setDeliver: (deliver: Deliver) => void };

const runtimes = new WeakMap<AppContext, PaymentRuntime>();

export function paymentRuntime(ctx: AppContext, settings: Partial<SimulatorOptions> = {}): PaymentRuntime {
  const known = runtimes.get(ctx);
  if (known) return known;
  let deliver: Deliver = async (url, body, headers) => {
    const answer = await fetch(url, { method: 'POST', body, headers });
    return answer.ok && ((await answer.json()) as { code?: string }).code === 'SUCCESS';
  };
  const simulator = new SimulatorGateway({ db: ctx.db, box: ctx.secrets, now: ctx.now, deliver: (...args) => deliver(...args), ...settings });
  const runtime: PaymentRuntime = { gateways: new GatewayRegistry().add(simulator), simulator, setDeliver: (d) => void (deliver = d) };
  runtimes.set(ctx, runtime);
  return runtime;
}
