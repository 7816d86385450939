// 监控查询 (/druid/login): what GET /api/SystemMonitor/snapshot answers. Sizes in bytes,
// times in milliseconds; null where the figure is not known here (no pool on SQLite, no Redis configured…).

/** The window the request figures cover. */
export const REQUEST_WINDOW_MINUTES = 5;
import type { z } from 'zod';
import type * as figuresAnswers from './responses/figures.ts';

export type RouteStats = z.output<typeof figuresAnswers.routeStats>;

/** One server process's own figures. */
export type ProcessFigures = z.output<typeof figuresAnswers.processFigures>;

/** The background jobs whose last run 监控查询 shows (server/src/db/job-runs.ts). */
export type JobName = 'orderSweep' | 'logRetention' | 'reconcile';

/** A background job's last run: `summary` says what it did; `failTime` / `failError`: its last failure ('' / null: none). */
export type JobRunView = z.output<typeof figuresAnswers.jobRunView>;

export type SystemSnapshot = z.output<typeof figuresAnswers.systemSnapshot>;
