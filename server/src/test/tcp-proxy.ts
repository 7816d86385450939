import net from 'node:net';

/**
 * A TCP proxy in front of a shared service (PostgreSQL, Redis) that a fault test cuts and restores, so
 * no real service is ever stopped: `cut` destroys every live connection and refuses new ones (closed at
 * once, as a stopped server's port does), `restore` lets connections through again.
 */
export type TcpProxy = {
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  readonly via: (url: string) => string;
  cut: () => void;
  restore: () => void;
  /** Connections made through the proxy so far (a test sees that clients came back). */
  readonly connections: () => number;
  close: () => Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const live = new Set<net.Socket>();
  let isCut = false;
  let made = 0;
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
    downstream.pipe(upstream).pipe(downstream);
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
    connections: () => made,
    close: async () => {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The host and port a service URL names (postgres://, redis://), with the protocol's default port. */
export function targetOf(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || (u.protocol.startsWith('redis') ? 6379 : 5432)) };
}
