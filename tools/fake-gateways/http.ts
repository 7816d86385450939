import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { yuan, type FakePayment } from './books.ts';

// The fakes' HTTP side: loopback only, one port each (0 = any free port), a raw body for every request.
// Given a certificate, the one port speaks both HTTPS (asking for a client certificate, as WeChat Pay's
// /secapi/ does) and plain HTTP (the customers' pages: a phone opens them without the fake's CA): a TLS
// connection is told apart by its first byte (a handshake record, 0x16).

export type FakeRequest = {
  method: string; path: string; query: URLSearchParams; headers: IncomingMessage['headers']; body: Buffer; text: string;
  /** HTTPS with requestCert: the subject CN of a client certificate the server's CA issued (else undefined) */
  clientCertCN?: string;
};
export type FakeAnswer = { status?: number; headers?: Record<string, string>; body?: string | Buffer };
export type FakeHandler = (request: FakeRequest) => Promise<FakeAnswer | undefined> | FakeAnswer | undefined;

export type TlsIdentity = { key: string; cert: string; ca: string };
/** url: plain HTTP; secureUrl: HTTPS on the same port (only with a certificate). */
export type RunningServer = { url: string; secureUrl?: string; port: number; close: () => Promise<void> };

export async function serveLoopback(port: number, handler: FakeHandler, tls?: TlsIdentity): Promise<RunningServer> {
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = Buffer.concat(chunks);
      const tls = req.socket as TLSSocket;
      const clientCertCN = typeof tls.getPeerCertificate === 'function' && tls.authorized ? String(tls.getPeerCertificate().subject?.CN ?? '') : undefined;
      Promise.resolve(handler({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body, text: body.toString('utf8'), clientCertCN }))
        .then((answer) => {
          const a = answer ?? { status: 404, body: 'not found' };
          res.writeHead(a.status ?? 200, a.headers ?? {});
          res.end(a.body ?? '');
        })
        .catch((error: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(error instanceof Error ? error.message : String(error));
        });
    });
  };
  const plain = createServer(listener);
  const secure = tls ? createHttpsServer({ key: tls.key, cert: tls.cert, ca: tls.ca, requestCert: true, rejectUnauthorized: false }, listener) : undefined;
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (secure && first[0] === 0x16 ? secure : plain).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
  for (const s of [plain, secure]) if (s) s.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`, port: actual, ...(secure ? { secureUrl: `https://127.0.0.1:${actual}` } : {}),
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

/** Posts a notification to the merchant; answers the merchant's status and body (a network failure: status 0). */
export async function postNotification(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  try {
    const answer = await fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(10_000) });
    return { status: answer.status, text: await answer.text() };
  } catch {
    return { status: 0, text: '' };
  }
}

const RETRY_SECONDS = [1, 2, 3, 5, 8, 13, 20, 30];

/**
 * A payment's or refund's notification as the real services send it: sent again until the merchant
 * acknowledges it (`taken`: the service's own success answer; no answer, a 5xx or a 4xx is not one) —
 * WeChat: 15 s, 15 s, 30 s, 3 min …; Alipay: 4 min, 10 min …; shortened here to 1, 2, 3, 5 … 30 s —
 * in the background; answers the first try's answer.
 */
export async function notifyUntilTaken(send: () => Promise<Answered>, taken: (a: Answered) => boolean): Promise<Answered> {
  const again = (i: number) => setTimeout(() => void send().then((a) => !taken(a) && i + 1 < RETRY_SECONDS.length && again(i + 1)), RETRY_SECONDS[i]! * 1000).unref();
  const first = await send();
  if (!taken(first)) again(0);
  return first;
}
type Answered = { status: number; text: string };

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The "customer pays" page a fake's QR code opens: the amount, the goods, one button — and, once paid, what
 * was refunded (so a refund is seen to reach the gateway). Its contract with the terminal simulator, the
 * same as the 支付模拟 page's (docs/terminal-protocol.md, "The customer pays"): the page is a GET of the
 * code URL; paying is its `<form method="post">` sent back to that URL (its hidden fields and
 * action=pay); `data-pay-state` on the page says the payment's state after the request (open, paid, closed, missing).
 */
export function payPage(title: string, p: FakePayment | undefined, orderNo: string, closedText: string): FakeAnswer {
  const state = !p ? 'missing' : p.status;
  const text = { missing: '订单不存在', open: '', paid: '支付成功', closed: closedText }[state];
  const refunded = p && p.refunded > 0 ? `<p class="refunded">已退款 ¥ ${yuan(p.refunded)}</p>` : '';
  const body = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:sans-serif;max-width:420px;margin:24px auto;padding:0 16px}.amount{font-size:36px;text-align:center}button{width:100%;padding:14px;font-size:17px}</style></head>
<body data-pay-state="${state}"><h1>${esc(title)}</h1><p class="amount">¥ ${p ? yuan(p.amount) : '-'}</p><p>${esc(p?.subject ?? '')}</p><p>${esc(orderNo)}</p>
${text ? `<p class="state">${esc(text)}</p>` : ''}${refunded}${state === 'open' ? '<form method="post"><button name="action" value="pay">确认支付</button></form>' : ''}</body></html>`;
  return { status: p ? 200 : 404, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body };
}

/** The order number of a customer page's path (/pay/<orderNo>), or undefined. */
export const pagePathOrderNo = (path: string) => {
  const page = /^\/pay\/([^/]+)$/.exec(path);
  return page ? decodeURIComponent(page[1]!) : undefined;
};

export const json = (status: number, data: unknown, headers: Record<string, string> = {}): FakeAnswer => ({
  status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: data === undefined ? '' : JSON.stringify(data),
});
