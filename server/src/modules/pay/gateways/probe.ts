import { randomBytes } from 'node:crypto';
import { fill, messages, type PayConfigCheckItem, type PayConfigCheckResult } from '@huiyun/contract';

// What every gateway's 检测 (PaymentGateway.probe) shares: the order number that cannot exist, the timeout,
// and how the checks become the one answer. Each gateway's probe.ts maps its own error codes to the sentences
// of messages.payConfigCheck, each naming the field of the 支付配置 to fix.

const m = messages.payConfigCheck;

/** How long 检测 waits for a gateway (the WeChat Pay clients' own timeout). */
export const PROBE_TIMEOUT_MS = 15_000;

/**
 * An order number no sale ever has (ours are T + digits): a query for it finds nothing and changes nothing.
 * 26 characters, within WeChat Pay's 6–32 and Alipay's 64, letters and digits only.
 */
export const probeOrderNo = (): string => `PROBE${Date.now()}${randomBytes(4).toString('hex').toUpperCase()}`;

export const passed = (name: string, message: string): PayConfigCheckItem => ({ name, ok: true, message });
export const failed = (name: string, message: string): PayConfigCheckItem => ({ name, ok: false, message });

/** The answer: valid when every check passed (what they proved), else the first failure's sentence. */
export function probeResult(checks: PayConfigCheckItem[]): PayConfigCheckResult {
  const failure = checks.find((c) => !c.ok);
  const message = failure ? fill(m.invalid, { reason: failure.message }) : fill(m.valid, { proved: checks.map((c) => c.message).join('；') });
  return { ok: !failure, message, checks };
}

/** A key text that must parse before anything is sent: undefined when it does, else the failed check naming its field. */
export function unreadableKey(name: string, label: string, parse: () => unknown): PayConfigCheckItem | undefined {
  try {
    parse();
    return undefined;
  } catch {
    return failed(name, fill(m.keyUnreadable, { label }));
  }
}

/** A code the gateway answered, safe to show (letters, digits and a few signs, bounded): never a value of the request. */
export const shownCode = (code: unknown): string => String(code ?? '').replace(/[^\w.\-\u4e00-\u9fa5，、]/g, '').slice(0, 64) || '?';
