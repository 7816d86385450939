import { Counter, Gauge, type Registry } from 'prom-client';
import type { PoolStats } from '../../../db/connect.ts';

// A process's PostgreSQL pool (db/connect.ts): its size, the connections open, in use and idle, the
// requests waiting for one now, and the counts since the process started — requests that had to wait,
// those refused (503: the queue full, or the wait bound passed) and console reads stopped by their
// statement timeout. Registered on PostgreSQL only. Read from the process's memory at each scrape (no query).

export function poolGauges(stats: () => PoolStats | undefined, registry: Registry): void {
  const gauge = (name: string, help: string, value: (pool: PoolStats) => number) => new Gauge({
    name, help, registers: [registry],
    collect() {
      const pool = stats();
      if (pool) this.set(value(pool));
    },
  });
  const counter = (name: string, help: string, value: (pool: PoolStats) => number) => new Counter({
    name, help, registers: [registry],
    collect() {
      const pool = stats();
      if (!pool) return;
      this.reset();
      this.inc(value(pool));
    },
  });
  gauge('huiyun_database_pool_size', 'PostgreSQL pool: connections it may open at most (DATABASE_POOL_SIZE)', (pool) => pool.size);
  gauge('huiyun_database_pool_connections', 'PostgreSQL pool: connections open', (pool) => pool.open);
  gauge('huiyun_database_pool_in_use', 'PostgreSQL pool: connections lent to a request or a job', (pool) => pool.inUse);
  gauge('huiyun_database_pool_idle', 'PostgreSQL pool: connections idle', (pool) => pool.idle);
  gauge('huiyun_database_pool_waiting', 'PostgreSQL pool: requests waiting for a connection now', (pool) => pool.waiting);
  counter('huiyun_database_pool_waits_total', 'PostgreSQL pool: requests that waited for a connection', (pool) => pool.waits);
  new Counter({
    name: 'huiyun_database_pool_refusals_total', help: 'PostgreSQL pool: requests refused a connection (answered 503): the queue full (DATABASE_POOL_MAX_WAITING) or the wait past DATABASE_POOL_WAIT_MS',
    labelNames: ['reason'] as const, registers: [registry],
    collect() {
      const pool = stats();
      if (!pool) return;
      this.reset();
      this.inc({ reason: 'queue_full' }, pool.refused.queueFull);
      this.inc({ reason: 'wait_timeout' }, pool.refused.waitTimeout);
    },
  });
  counter('huiyun_database_statement_timeouts_total', 'PostgreSQL: console reads and exports stopped by their statement timeout', (pool) => pool.statementTimeouts);
}
