import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakePhone } from './phone.ts';

// For the fake phone's own tests (and a bridge's, if it likes): an authorized client of one phone, a webhook
// receiver on 127.0.0.1 that keeps what it got, and a wait for a condition.

export function phoneClient(phone: FakePhone, password = phone.password) {
  const authorization = `Basic ${Buffer.from(`${phone.user}:${password}`).toString('base64')}`;
  return async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(phone.url + path, {
      method, headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await answer.text();
    return { status: answer.status, headers: answer.headers, body: text ? (JSON.parse(text) as any) : undefined };
  };
}

export type Received = { raw: string; body: any; timestamp: string; signature: string };

/** A webhook receiver: `answer` gives the status for the n-th post (0-based; default 200). */
export async function startReceiver(answer: (n: number) => number = () => 200) {
  const received: Received[] = [];
  let posts = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = answer(posts++);
      const raw = Buffer.concat(chunks).toString('utf8');
      if (status < 300) received.push({ raw, body: JSON.parse(raw), timestamp: String(req.headers['x-timestamp']), signature: String(req.headers['x-signature']) });
      res.writeHead(status);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received, posts: () => posts,
    events: (event: string) => received.filter((r) => r.body.event === event),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Waits until the condition holds (checked every few ms; the test's own timeout bounds it). */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
