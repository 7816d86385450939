import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// One phone's HTTP listener on 127.0.0.1, which a test can take offline in two ways a real phone does:
// 'refuse' (the app or the phone is off: the port is closed, open connections are cut) and 'hang' (the phone
// is asleep or off the Wi-Fi: connections are taken but nothing is answered). Back online, the same port.

export type Request = { method: string; path: string; query: URLSearchParams; headers: IncomingMessage['headers']; text: string };
export type Answer = { status: number; headers?: Record<string, string>; body?: string };
export type Handler = (request: Request) => Answer | Promise<Answer>;
export type OfflineMode = 'refuse' | 'hang';

export class PhoneServer {
  private readonly sockets = new Set<Socket>();
  private readonly hung = new Set<ServerResponse>();
  private mode: OfflineMode | undefined;
  private wakers: (() => void)[] = [];
  private readonly server;
  port = 0;

  constructor(handler: Handler) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (this.mode) {
          this.hung.add(res);
          res.once('close', () => this.hung.delete(res));
          return;
        }
        const url = new URL(req.url ?? '/', 'http://phone');
        Promise.resolve(handler({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, text: Buffer.concat(chunks).toString('utf8') }))
          .then((a) => {
            res.writeHead(a.status, a.headers ?? {});
            res.end(a.body ?? '');
          }, (error: unknown) => {
            res.writeHead(500, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ message: error instanceof Error ? error.message : String(error) }));
          });
      });
    });
    this.server.keepAliveTimeout = 1000;
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }
  get offline(): OfflineMode | undefined {
    return this.mode;
  }
  /** requests taken while 'hang' and never answered */
  get hungRequests(): number {
    return this.hung.size;
  }

  async listen(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  async goOffline(mode: OfflineMode): Promise<void> {
    if (this.mode) await this.goOnline();
    this.mode = mode;
    if (mode === 'refuse') {
      const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
      this.cutConnections();
      await closed;
    }
  }

  async goOnline(): Promise<void> {
    const was = this.mode;
    if (!was) return;
    // requests hung while offline never get an answer: the client sees its connection cut
    this.cutConnections();
    if (was === 'refuse') await this.listen(this.port);
    this.mode = undefined;
    for (const wake of this.wakers.splice(0)) wake();
  }

  /** Resolves once the phone is online (at once when it is). */
  whenOnline(): Promise<void> {
    return this.mode ? new Promise((resolve) => this.wakers.push(resolve)) : Promise.resolve();
  }

  async close(): Promise<void> {
    this.cutConnections();
    for (const wake of this.wakers.splice(0)) wake();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private cutConnections(): void {
    for (const socket of this.sockets) socket.destroy();
    this.hung.clear();
  }
}
