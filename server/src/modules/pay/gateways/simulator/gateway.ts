import { GatewayVerifyError, type CreatePayment, type GatewayConfig, type PaidNotification, type PaymentGateway, type PaymentState, type RefundState } from '../gateway.ts';
import type { SecretBox } from '../../../../infra/secret-box.ts';
import { SimulatorKeys } from './keys.ts';
import type { SimBody } from './notifier.ts';
import type { SimulatedPlatform } from './platform.ts';
import { probeSimulator } from './probe.ts';

// The simulator gateway: an ordinary gateway whose remote side, the simulated payment platform
// (platform.ts), runs in this process. It asks the platform as the other gateways ask theirs, and checks
// the platform's notifications with the key they share (keys.ts).

export const SIMULATOR = 'simulator';
/** Its first notify URL, the order number in the body (order/notify-routes.ts: the body-numbered route). */
export const SIM_NOTIFY_PATH = '/gateway/simulator/notify';
const WINDOW_MS = 300_000;

export class SimulatorGateway implements PaymentGateway {
  readonly name = SIMULATOR;
  private readonly platform: SimulatedPlatform;
  private readonly keys: SimulatorKeys;
  private readonly now: () => number;

  constructor(options: { platform: SimulatedPlatform; box: SecretBox; now: () => number }) {
    this.platform = options.platform;
    this.keys = new SimulatorKeys(options.box);
    this.now = options.now;
  }

  createPayment(config: GatewayConfig, input: CreatePayment): Promise<{ codeUrl: string }> {
    return this.platform.createPayment(config, input);
  }

  query(config: GatewayConfig, orderNo: string): Promise<PaymentState> {
    return this.platform.query(config, orderNo);
  }

  close(config: GatewayConfig, orderNo: string): Promise<PaymentState> {
    return this.platform.close(config, orderNo);
  }

  refund(config: GatewayConfig, input: { orderNo: string; refundNo: string; amount: number }): Promise<RefundState> {
    return this.platform.refund(config, input);
  }

  queryRefund(config: GatewayConfig, refundNo: string): Promise<RefundState> {
    return this.platform.queryRefund(config, refundNo);
  }

  downloadBill(config: GatewayConfig, day: string) {
    return this.platform.bill(config, day);
  }

  probe() {
    return probeSimulator();
  }

  orderNoOf(rawBody: string): string | undefined {
    try {
      const body = JSON.parse(rawBody) as Partial<SimBody>;
      return typeof body.orderNo === 'string' ? body.orderNo : undefined;
    } catch {
      return undefined;
    }
  }

  verifyNotification(config: GatewayConfig, rawBody: string, headers: Record<string, string | string[] | undefined>): PaidNotification {
    const timestamp = String(headers['x-sim-timestamp'] ?? '');
    const signature = String(headers['x-sim-signature'] ?? '');
    if (!/^\d{10,16}$/.test(timestamp) || Math.abs(this.now() - Number(timestamp)) > WINDOW_MS) throw new GatewayVerifyError('stale or missing timestamp');
    if (!this.keys.signs(config, timestamp, rawBody, signature)) throw new GatewayVerifyError('bad signature');
    const body = JSON.parse(rawBody) as SimBody;
    if (typeof body.orderNo !== 'string' || typeof body.transId !== 'string' || !Number.isSafeInteger(body.amount)) throw new GatewayVerifyError('bad body');
    return { orderNo: body.orderNo, transId: body.transId, amount: body.amount, mchId: String(body.mchId ?? ''), appId: String(body.appId ?? ''), payTime: Number(body.payTime) };
  }

  acknowledgement(ok: boolean, message: string) {
    return { contentType: 'application/json; charset=utf-8', body: JSON.stringify({ code: ok ? 'SUCCESS' : 'FAIL', message }) };
  }
}
