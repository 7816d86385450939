// 监控查询 (/druid/login): what GET /api/SystemMonitor/snapshot answers. Sizes in bytes,
// times in milliseconds; null where the figure is not known here (no pool on SQLite, no Redis configured…).

/** The window the request figures cover. */
export const REQUEST_WINDOW_MINUTES = 5;
import type { z } from 'zod';
import type * as figuresAnswers from './responses/figures.ts';

export type RouteStats = { route: string; count: number; errors: number; p50: number; p95: number; p99: number };

/** One server process's own figures. */
export type ProcessFigures = {
  pid: number; uptimeSeconds: number;
  rss: number; heapUsed: number; heapTotal: number;
  /** Of one core, since the last snapshot (or the start): 0–100 × cores. */
  cpuPercent: number;
  eventLoop: { p50: number; p99: number; max: number };
  connections: number | null;
};

/** The background jobs whose last run 监控查询 shows (server/src/db/job-runs.ts). */
export type JobName = 'orderSweep' | 'logRetention' | 'reconcile';

/** A background job's last run: `summary` says what it did; `failTime` / `failError`: its last failure ('' / null: none). */
export type JobRunView = {
  job: JobName; startTime: string; durationMs: number; ok: boolean; summary: string; error: string; pid: number;
  failTime: string | null; failError: string;
};

export type SystemSnapshot = z.output<typeof figuresAnswers.systemSnapshot>;
