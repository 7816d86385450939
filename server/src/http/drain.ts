import type { FastifyInstance } from 'fastify';

/**
 * A bounded drain for a stopping instance (SIGTERM; README 多台服务器, rolling restart):
 *
 * 1. `/healthz` answers 503 from now on (draining() below): a load balancer takes the instance out.
 *    For `noticeMs` (SHUTDOWN_NOTICE_MS) the instance still accepts connections, so that a balancer that
 *    learns of the drain from its next health check sends nothing to a closed port meanwhile.
 * 2. No new connection is accepted (a client's connect is refused: it retries, reaching another
 *    instance); a request still arriving on a kept-alive connection is served and answered with
 *    `Connection: close`.
 * 3. Handlers that hold a request open (a long poll) are told to answer now (onDrain).
 * 4. Requests in flight finish, for at most `graceMs`; past it the connections still open are cut.
 * 5. The caller stops its background work and closes the app (its onClose hooks: the database, Redis).
 *
 * The drain's figures (how long, how many were in flight, how many were cut) are logged and returned.
 */

let drainingSince: number | undefined;
const drainListeners = new Set<() => void>();

/** True once this process has started to drain: /healthz answers 503. */
export function draining(): boolean {
  return drainingSince !== undefined;
}

/** Calls `answer` when the drain starts (at once when it has already started); returns the unsubscribe. */
export function onDrain(answer: () => void): () => void {
  if (draining()) {
    answer();
    return () => {};
  }
  drainListeners.add(answer);
  return () => void drainListeners.delete(answer);
}

export type InFlight = { readonly count: () => number; readonly idle: () => Promise<void> };

/**
 * Counts the HTTP requests this server is answering (registered on the node server, so it works after
 * the app is ready). While draining, every response carries `Connection: close`: a client's kept-alive
 * connection ends after its answer and its next request opens a connection elsewhere.
 */
export function countInFlight(app: FastifyInstance): InFlight {
  let count = 0;
  let waiters: (() => void)[] = [];
  // before the app's own listener: the header is set before any answer is written
  app.server.prependListener('request', (_request, response) => {
    count++;
    if (draining() && !response.headersSent) response.setHeader('connection', 'close');
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      count--;
      if (count === 0) { const w = waiters; waiters = []; for (const resolve of w) resolve(); }
    };
    response.once('finish', finish);
    response.once('close', finish);
  });
  return { count: () => count, idle: () => count === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve)) };
}

export type DrainFigures = { ms: number; inFlightAtStart: number; cutOff: number };

/**
 * Steps 1–4 above; the caller then stops its background work and closes the app (step 5). Resolves once
 * no request is in flight, or when `graceMs` has passed (then the connections still open are cut).
 */
export async function drain(app: FastifyInstance, inFlight: InFlight, options: { graceMs: number; noticeMs?: number }): Promise<DrainFigures> {
  const started = performance.now();
  drainingSince = Date.now();
  const inFlightAtStart = inFlight.count();
  for (const answer of [...drainListeners]) {
    try { answer(); } catch (error) { app.log.error({ err: error }, 'drain: a held request could not be answered'); }
  }
  drainListeners.clear();
  // the balancer's notice: /healthz says 503 while connections are still taken (a connect in the accept
  // queue when the port closes is reset, and a balancer cannot tell whether it was read)
  if (options.noticeMs) await new Promise((resolve) => setTimeout(resolve, options.noticeMs));
  // no new connection; idle kept-alive ones end now (node's server.close), busy ones after their answer
  app.server.close();
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'grace'>((resolve) => { timer = setTimeout(() => resolve('grace'), options.graceMs); });
  const outcome = await Promise.race([inFlight.idle().then(() => 'idle' as const), graceOver]);
  clearTimeout(timer);
  let cutOff = 0;
  if (outcome === 'grace') {
    cutOff = inFlight.count();
    app.log.warn(`drain: ${cutOff} requests still in flight after ${options.graceMs} ms (SHUTDOWN_GRACE_SECONDS): cutting their connections`);
    app.server.closeAllConnections();
  } else {
    app.server.closeIdleConnections();
  }
  const figures = { ms: Math.round(performance.now() - started), inFlightAtStart, cutOff };
  app.log.info({ drain: figures }, `drain: finished in ${figures.ms} ms (${inFlightAtStart} requests in flight at the start, ${cutOff} cut off)`);
  return figures;
}
