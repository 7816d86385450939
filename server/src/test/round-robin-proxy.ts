import http from 'node:http';

/**
 * A tiny load balancer for rolling-restart tests: forwards each HTTP request to the next upstream in
 * turn that its health check (GET /healthz every `checkMs`) last found healthy, and — as load balancers
 * do — tries the next upstream when a connect is refused (the request never reached a server).
 */
export type RoundRobinProxy = {
  readonly url: string;
  /** Requests answered 502 because no upstream could be reached. */
  readonly unreachable: () => number;
  close: () => Promise<void>;
};

export async function startRoundRobinProxy(upstreams: string[], options: { checkMs?: number; port?: number } = {}): Promise<RoundRobinProxy> {
  const healthy = upstreams.map(() => true);
  let next = 0;
  let unreachable = 0;
  const agent = new http.Agent({ keepAlive: true });
  const check = setInterval(() => {
    upstreams.forEach((u, i) => {
      fetch(`${u}/healthz`, { signal: AbortSignal.timeout(1_000) }).then((r) => void (healthy[i] = r.ok), () => void (healthy[i] = false));
    });
  }, options.checkMs ?? 100);
  const forward = (target: string, req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, refused: () => void) => {
    const url = new URL(req.url ?? '/', target);
    const out = http.request(url, { method: req.method, headers: { ...req.headers, host: url.host }, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', (error: NodeJS.ErrnoException) => {
      // refused, or a kept-alive connection closed before the request was written: it never reached a server
      if (error.code === 'ECONNREFUSED' || (error.code === 'ECONNRESET' && out.reusedSocket && !res.headersSent)) return refused();
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    out.end(body);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const order = upstreams.map((_, k) => (next + k) % upstreams.length);
      next = (next + 1) % upstreams.length;
      const candidates = [...order.filter((i) => healthy[i]), ...order.filter((i) => !healthy[i])];
      const attempt = (k: number) => {
        if (k >= candidates.length) {
          unreachable++;
          return void res.writeHead(502).end();
        }
        forward(upstreams[candidates[k]!]!, req, body, res, () => attempt(k + 1));
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    unreachable: () => unreachable,
    close: async () => {
      clearInterval(check);
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
