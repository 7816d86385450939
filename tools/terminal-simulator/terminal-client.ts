import { createHmac, randomBytes } from 'node:crypto';

// One machine's side of docs/terminal-protocol.md: every call signed with its terminal key
// (HMAC-SHA256 over METHOD \n PATH \n TIMESTAMP \n NONCE \n RAW BODY, lowercase hex).

export type Envelope<T> = { success: boolean; msg: string; errorInfo: string; data?: T };

export function signCall(key: string, method: string, path: string, timestamp: string, nonce: string, rawBody: string): string {
  return createHmac('sha256', key).update(`${method}\n${path}\n${timestamp}\n${nonce}\n${rawBody}`).digest('hex');
}

export class TerminalClient {
  readonly server: string;
  readonly machineNo: string;
  private readonly key: string;

  constructor(server: string, machineNo: string, key: string) {
    this.server = server.replace(/\/$/, '');
    this.machineNo = machineNo;
    this.key = key;
  }

  async call<T>(path: string, body: unknown, timeoutMs = 40_000): Promise<{ status: number; body: Envelope<T> }> {
    const fullPath = `/terminal/v1${path}`;
    const raw = JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(12).toString('hex');
    const answer = await fetch(`${this.server}${fullPath}`, {
      method: 'POST',
      body: raw,
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        'content-type': 'application/json', 'x-machine-no': this.machineNo, 'x-timestamp': timestamp, 'x-nonce': nonce,
        'x-signature': signCall(this.key, 'POST', fullPath, timestamp, nonce, raw),
      },
    });
    return { status: answer.status, body: (await answer.json()) as Envelope<T> };
  }

  /**
   * A call sent again while the server is in trouble — no answer, or a 5xx (503 while its database or
   * Redis is away or too busy) — after the protocol's backoff (`retryWait`), each time freshly signed, as
   * docs/terminal-protocol.md asks; a dispense report above all (the machine has already dropped the goods,
   * or not: the protocol makes the report idempotent). After `tries` it answers the last answer (or throws).
   */
  async callUntilAnswered<T>(path: string, body: unknown, retry: Retry = { tries: 30, ...PROTOCOL_BACKOFF }): Promise<{ status: number; body: Envelope<T> }> {
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await this.call<T>(path, body);
        if (answer.status < 500 || attempt >= retry.tries) return answer;
      } catch (error) {
        if (attempt >= retry.tries) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, retryWait(attempt, retry)));
    }
  }
}

/** A backoff: the first wait spread at random over [0, firstMs), then doubling from 2·firstMs, at most maxMs. */
export type Backoff = { firstMs: number; maxMs: number };
export type Retry = Backoff & { tries: number };

/** docs/terminal-protocol.md: 0–1 s, then 2 s, 4 s … at most 60 s. */
export const PROTOCOL_BACKOFF: Backoff = { firstMs: 1_000, maxMs: 60_000 };

/** The wait before try `attempt + 1`, after `attempt` failed ones (so a fleet that fails at once does not come back at once). */
export function retryWait(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  if (attempt <= 1) return random() * backoff.firstMs;
  return Math.min(backoff.maxMs, backoff.firstMs * 2 ** (attempt - 1));
}

/**
 * The customer on the page a code URL opens — the 支付模拟 page or a fake gateway's "customer pays" page
 * (tools/fake-gateways) — by their one contract (docs/terminal-protocol.md §8): a GET of the code URL shows
 * a `<form method="post">`; paying sends it back to the code URL (its hidden fields, action=pay); the
 * answer's `data-pay-state` says the payment's state. True when it says paid. `through` carries each request
 * (a fault test retries one that got no answer).
 */
export async function payOnPage(codeUrl: string, through: PageCall = (call) => call()): Promise<boolean> {
  const load = (init?: RequestInit) => through(async () => {
    const answer = await fetch(codeUrl, { ...init, signal: AbortSignal.timeout(15_000) });
    return { status: answer.status, text: await answer.text() };
  });
  const page = await load();
  const form = page.status === 200 ? /<form method="post">([\s\S]*?)<\/form>/.exec(page.text) : null;
  if (!form) return false;
  const fields = new URLSearchParams();
  for (const input of form[1]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields.set(unescapeHtml(input[1]!), unescapeHtml(input[2]!));
  fields.set('action', 'pay');
  const paid = await load({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields.toString() });
  return payStateOf(paid.text) === 'paid';
}
export type PageCall = (call: () => Promise<{ status: number; text: string }>) => Promise<{ status: number; text: string }>;

/** The data-pay-state of a customer page (open, paid, closed, missing), or undefined. */
export const payStateOf = (html: string) => /<body data-pay-state="([a-z]+)"/.exec(html)?.[1];

const unescapeHtml = (s: string) => s.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replaceAll('&amp;', '&');
