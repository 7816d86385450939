import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

// The fakes' HTTP side: loopback only, one port each (0 = any free port), a raw body for every request.

export type FakeRequest = {
  method: string; path: string; query: URLSearchParams; headers: IncomingMessage['headers']; body: Buffer; text: string;
  /** HTTPS with requestCert: the subject CN of a client certificate the server's CA issued (else undefined) */
  clientCertCN?: string;
};
export type FakeAnswer = { status?: number; headers?: Record<string, string>; body?: string | Buffer };
export type FakeHandler = (request: FakeRequest) => Promise<FakeAnswer | undefined> | FakeAnswer | undefined;

export type RunningServer = { url: string; port: number; close: () => Promise<void> };

export async function serveLoopback(port: number, handler: FakeHandler, makeServer: (listener: (req: IncomingMessage, res: ServerResponse) => void) => Server = createServer): Promise<RunningServer> {
  const server = makeServer((req, res) => {
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
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  const scheme = 'setSecureContext' in server ? 'https' : 'http';
  return {
    url: `${scheme}://127.0.0.1:${actual}`, port: actual,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections?.();
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

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The "customer pays" page a fake's QR code opens: the amount, the goods, one button. */
export function payPage(title: string, view: { amount: string; subject: string; orderNo: string; state?: string; canPay: boolean }): FakeAnswer {
  const body = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:sans-serif;max-width:420px;margin:24px auto;padding:0 16px}.amount{font-size:36px;text-align:center}button{width:100%;padding:14px;font-size:17px}</style></head>
<body><h1>${esc(title)}</h1><p class="amount">¥ ${esc(view.amount)}</p><p>${esc(view.subject)}</p><p>${esc(view.orderNo)}</p>
${view.state ? `<p class="state">${esc(view.state)}</p>` : ''}${view.canPay ? '<form method="post"><button name="action" value="pay">确认支付</button></form>' : ''}</body></html>`;
  return { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body };
}

export const json = (status: number, data: unknown, headers: Record<string, string> = {}): FakeAnswer => ({
  status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: data === undefined ? '' : JSON.stringify(data),
});
