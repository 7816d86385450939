import net from 'node:net';

/**
 * A TCP proxy in front of a shared service (PostgreSQL, Redis) that a fault test cuts and restores, so
 * no real service is ever stopped: `cut` destroys every live connection and refuses new ones (closed at
 * once, as a stopped server's port does), `restore` lets connections through again. `delay(ms)` holds
 * each chunk ms before passing it on, in both directions (a round trip gains 2·ms: a slow or distant
 * database), for the connections open and those to come; `delay(0)` lets them through at once again.
 */
export type TcpProxy = {
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  readonly via: (url: string) => string;
  cut: () => void;
  restore: () => void;
  delay: (ms: number) => void;
  /** Connections made through the proxy so far (a test sees that clients came back). */
  readonly connections: () => number;
  close: () => Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const live = new Set<net.Socket>();
  let isCut = false;
  let made = 0;
  let delayMs = 0;
  const server = net.createServer((downstream) => {
    if (isCut) return void downstream.destroy();
    made++;
    const upstream = net.connect(target.port, target.host);
    const pair = [downstream, upstream];
    for (const socket of pair) {
      live.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        live.delete(socket);
        for (const other of pair) other.destroy();
      });
    }
    relay(downstream, upstream, () => delayMs);
    relay(upstream, downstream, () => delayMs);
  });
  await new Promise<void>((resolve, reject) => server.listen(0, '127.0.0.1', resolve).once('error', reject));
  const { port } = server.address() as net.AddressInfo;
  const cut = () => {
    isCut = true;
    for (const socket of live) socket.destroy();
  };
  return {
    port,
    via: (url) => {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut,
    restore: () => void (isCut = false),
    delay: (ms) => void (delayMs = ms),
    connections: () => made,
    close: async () => {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * `from`'s chunks written to `to` in order, each once `delayMs()` has passed since it came (a chunk never
 * overtakes one before it, also when the delay is shortened meanwhile).
 */
function relay(from: net.Socket, to: net.Socket, delayMs: () => number): void {
  const held: { chunk: Buffer; due: number }[] = [];
  let timer: NodeJS.Timeout | undefined;
  // as pipe() does: stop reading while the other side's buffer is full
  const pass = (chunk: Buffer) => {
    if (!to.write(chunk)) {
      from.pause();
      to.once('drain', () => from.resume());
    }
  };
  const flush = () => {
    timer = undefined;
    const now = Date.now();
    while (held.length > 0 && held[0]!.due <= now) pass(held.shift()!.chunk);
    if (held.length > 0) timer = setTimeout(flush, held[0]!.due - now);
  };
  from.on('data', (chunk: Buffer) => {
    const ms = delayMs();
    if (ms <= 0 && held.length === 0) return pass(chunk);
    held.push({ chunk, due: Date.now() + ms });
    timer ??= setTimeout(flush, Math.max(0, held[0]!.due - Date.now()));
  });
  from.on('close', () => clearTimeout(timer));
}

/** The host and port a service URL names (postgres://, redis://), with the protocol's default port. */
export function targetOf(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || (u.protocol.startsWith('redis') ? 6379 : 5432)) };
}
