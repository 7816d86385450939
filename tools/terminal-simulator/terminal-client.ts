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
   * A call that must get through (a dispense report: the machine has already dropped the goods, or not):
   * sent again, freshly signed, while the server is away (no answer, or 503 while its database or Redis is)
   * — as a real machine keeps its report until it is taken. The protocol makes the report idempotent.
   */
  async callUntilAnswered<T>(path: string, body: unknown, retry = { tries: 30, gapMs: 1_000 }): Promise<{ status: number; body: Envelope<T> }> {
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await this.call<T>(path, body);
        if (answer.status !== 503 || attempt >= retry.tries) return answer;
      } catch (error) {
        if (attempt >= retry.tries) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, retry.gapMs));
    }
  }
}

/** The customer on the 支付模拟 page: opens the code url and presses 支付成功. True when the page says paid. */
export async function payOnSimulatorPage(codeUrl: string): Promise<boolean> {
  const url = new URL(codeUrl);
  const page = await fetch(url);
  if (!page.ok) return false;
  await page.text();
  const answer = await fetch(`${url.origin}${url.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ t: url.searchParams.get('t') ?? '', action: 'pay' }).toString(),
  });
  return (await answer.text()).includes('支付成功，');
}
