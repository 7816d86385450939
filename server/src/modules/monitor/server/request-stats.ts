import type { FastifyInstance } from 'fastify';
import { REQUEST_WINDOW_MINUTES, type RouteStats } from '@huiyun/contract';

// Requests per route over the last minutes: each route keeps its last answers in this process (time, duration,
// error) in a ring of fixed size, read back by the window; with SERVER_WORKERS the processes' windows are taken
// together (routeStats, gathered by routes.ts). Bounded memory: RING entries per route, and routes are
// the declared ones (a path nothing matched counts as one '(未匹配)').

const RING = 4_096;
const WINDOW_MS = REQUEST_WINDOW_MINUTES * 60_000;

class RouteRing {
  readonly at = new Float64Array(RING);
  readonly ms = new Float64Array(RING);
  readonly failed = new Uint8Array(RING);
  next = 0;
  size = 0;
  add(at: number, ms: number, failed: boolean) {
    this.at[this.next] = at;
    this.ms[this.next] = ms;
    this.failed[this.next] = failed ? 1 : 0;
    this.next = (this.next + 1) % RING;
    if (this.size < RING) this.size++;
  }
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
const round = (ms: number) => Math.round(ms * 100) / 100;

export class RequestStats {
  private readonly routes = new Map<string, RouteRing>();

  record(route: string, ms: number, status: number, now = Date.now()) {
    let ring = this.routes.get(route);
    if (!ring) this.routes.set(route, (ring = new RouteRing()));
    ring.add(now, ms, status >= 500);
  }

  /** Each route answered within the window: its durations (ms) and errors (5xx). */
  window(now = Date.now()): RouteWindow[] {
    const windows: RouteWindow[] = [];
    for (const [route, ring] of this.routes) {
      const durations: number[] = [];
      let errors = 0;
      for (let i = 0; i < ring.size; i++) {
        if (ring.at[i]! < now - WINDOW_MS) continue;
        durations.push(round(ring.ms[i]!)); // (rounded as the figures are: the same order, less to send)
        errors += ring.failed[i]!;
      }
      if (durations.length > 0) windows.push({ route, durations, errors });
    }
    return windows;
  }

  /** Each route answered within the window: count, errors (5xx), p50 / p95 / p99 in ms; busiest first. */
  snapshot(now = Date.now()): RouteStats[] {
    return routeStats([this.window(now)]);
  }
}

/** A route's answers within the window in one process. */
export type RouteWindow = { route: string; durations: number[]; errors: number };

/** The routes' figures over the windows of one or more processes (SERVER_WORKERS): each route's answers taken together. */
export function routeStats(processes: RouteWindow[][]): RouteStats[] {
  const byRoute = new Map<string, { durations: number[]; errors: number }>();
  for (const windows of processes) {
    for (const { route, durations, errors } of windows) {
      const known = byRoute.get(route);
      if (known) {
        known.durations.push(...durations);
        known.errors += errors;
      } else {
        byRoute.set(route, { durations: [...durations], errors });
      }
    }
  }
  const stats: RouteStats[] = [];
  for (const [route, { durations, errors }] of byRoute) {
    durations.sort((a, b) => a - b);
    stats.push({ route, count: durations.length, errors, p50: round(percentile(durations, 50)), p95: round(percentile(durations, 95)), p99: round(percentile(durations, 99)) });
  }
  return stats.sort((a, b) => b.count - a.count || a.route.localeCompare(b.route));
}

/** Counts every answer of the app (the hook is added to the root instance: the caller's plugin skips encapsulation). */
export function recordRequests(app: FastifyInstance, stats: RequestStats, also?: (route: string, method: string, ms: number, status: number) => void) {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ? `${request.method} ${request.routeOptions.url}` : '(未匹配)';
    const ms = reply.elapsedTime;
    stats.record(route, ms, reply.statusCode);
    also?.(request.routeOptions.url ?? '(未匹配)', request.method, ms, reply.statusCode);
  });
}
