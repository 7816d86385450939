// 监控查询 (/druid/login, issue 34 §2): what GET /api/SystemMonitor/snapshot answers. Sizes in bytes,
// times in milliseconds; null where the figure is not known here (no pool on SQLite, no Redis configured…).

/** The window the request figures cover. */
export const REQUEST_WINDOW_MINUTES = 5;

export type RouteStats = { route: string; count: number; errors: number; p50: number; p95: number; p99: number };

export type SystemSnapshot = {
  time: string;
  server: {
    version: string; node: string; pid: number; workers: number; uptimeSeconds: number;
    rss: number; heapUsed: number; heapTotal: number;
    /** Of one core, since the last snapshot (or the start): 0–100 × cores. */
    cpuPercent: number;
    eventLoop: { p50: number; p99: number; max: number };
    connections: number | null;
  };
  requests: RouteStats[];
  database: {
    kind: 'sqlite' | 'postgres';
    sizeBytes: number | null;
    pool: { total: number; idle: number; waiting: number } | null;
    /** PostgreSQL with pg_stat_statements loaded; null otherwise. */
    slowest: { statement: string; calls: number; meanMs: number }[] | null;
  };
  redis: { clients: number; usedMemory: number } | null;
  business: {
    devicesOnline: number; machinesOnline: number;
    /** null until the server has run a minute. */
    sentLastMinute: number | null; ordersLastMinute: number | null;
    refundsInFlight: number; alarmsToday: number;
  };
};
