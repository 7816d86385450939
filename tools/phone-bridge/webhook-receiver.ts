import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// The bridge's one HTTP listener for SMSGate webhooks (../shared/data/sms-devices.md §2). Each phone SIM
// registers its webhooks at `<webhook-url>/<route>`; the route names the device and so the signing key to
// check with. An event counts only when X-Signature is the hex HMAC-SHA256 of (raw body + X-Timestamp) under
// that phone's key, X-Timestamp is within ±5 minutes, and its event id was not seen in the last 10 minutes
// (a replay older than that is already stale). A replay is answered 200, so a phone retrying an event
// whose answer it lost stops retrying; a forged or stale one is refused. Polling settles whatever a
// refused or lost event would have said, so nothing depends on a webhook arriving.

export type WebhookPayload = {
  messageId?: string;
  recipient?: string;
  sender?: string;
  simNumber?: number;
  reason?: string;
  message?: string;
  receivedAt?: string;
  deliveredAt?: string;
  sentAt?: string;
  failedAt?: string;
  partsCount?: number;
};
export type WebhookBody = { id: string; webhookId?: string; event: string; deviceId?: string; payload: WebhookPayload };

export type WebhookCounts = { accepted: number; forged: number; stale: number; replayed: number; malformed: number; unknownRoute: number };

export type WebhookRoute = { signingKey: string; onEvent: (event: WebhookBody) => void };

export const SIGNATURE_WINDOW_SECONDS = 300;
const REPLAY_MEMORY_MS = 2 * SIGNATURE_WINDOW_SECONDS * 1000;
const MAX_BODY = 64 * 1024;

export function signWebhook(signingKey: string, rawBody: string, timestamp: string): string {
  return createHmac('sha256', signingKey).update(rawBody + timestamp).digest('hex');
}

export type Verdict = 'ok' | 'forged' | 'stale';

/** Checks one delivery's signature and time (seconds) against `nowMs`. */
export function verifyWebhook(signingKey: string, rawBody: string, timestamp: string | undefined, signature: string | undefined, nowMs = Date.now()): Verdict {
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return 'forged';
  const expected = Buffer.from(signWebhook(signingKey, rawBody, timestamp), 'hex');
  const given = Buffer.from(signature.trim().toLowerCase(), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) return 'stale';
  return 'ok';
}

export class WebhookReceiver {
  readonly counts: WebhookCounts = { accepted: 0, forged: 0, stale: 0, replayed: 0, malformed: 0, unknownRoute: 0 };
  private readonly routes = new Map<string, WebhookRoute>();
  /** Event id → when it was first seen, per route. */
  private readonly seen = new Map<string, number>();
  private server: http.Server | undefined;
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  addRoute(route: string, handler: WebhookRoute): void {
    this.routes.set(route, handler);
  }

  /** Listens on host:port (port 0: any free port); answers the address. */
  async listen(host: string, port: number): Promise<AddressInfo> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, resolve);
    });
    return this.server.address() as AddressInfo;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      const status = size > MAX_BODY ? 413 : this.receive(req, Buffer.concat(chunks).toString('utf8'));
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'refused');
    });
  }

  /** Answers the HTTP status for one delivery. */
  receive(req: Pick<http.IncomingMessage, 'method' | 'url' | 'headers'>, rawBody: string): number {
    const routeName = decodeURIComponent((req.url ?? '').split('?')[0].split('/').filter(Boolean).pop() ?? '');
    const route = this.routes.get(routeName);
    if (req.method !== 'POST' || !route) {
      this.counts.unknownRoute += 1;
      return 404;
    }
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const verdict = verifyWebhook(route.signingKey, rawBody, header('x-timestamp'), header('x-signature'), this.now());
    if (verdict !== 'ok') {
      this.counts[verdict] += 1;
      return verdict === 'forged' ? 401 : 400;
    }
    let body: WebhookBody;
    try {
      body = JSON.parse(rawBody) as WebhookBody;
      if (typeof body.id !== 'string' || typeof body.event !== 'string' || !body.payload || typeof body.payload !== 'object') throw new Error('shape');
    } catch {
      this.counts.malformed += 1;
      return 400;
    }
    this.forgetOld();
    const key = `${routeName}\n${body.id}`;
    if (this.seen.has(key)) {
      this.counts.replayed += 1;
      return 200;
    }
    this.seen.set(key, this.now());
    this.counts.accepted += 1;
    route.onEvent(body);
    return 200;
  }

  private forgetOld(): void {
    const before = this.now() - REPLAY_MEMORY_MS;
    // Insertion order is arrival order, so the oldest come first.
    for (const [key, at] of this.seen) {
      if (at >= before) break;
      this.seen.delete(key);
    }
  }
}
