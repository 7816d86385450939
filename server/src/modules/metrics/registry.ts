import type { Kysely } from 'kysely';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { BusinessStats, dayTotals } from '../system-monitor/business-stats.ts';
import { databaseStats } from '../system-monitor/database-stats.ts';

// The figures of 监控查询 for Prometheus (prom-client): the process (its default metrics: CPU, memory, event-loop
// lag, handles), every answer by route in a histogram, and the database and the business as gauges read at
// each scrape. Counts since midnight are gauges (they restart with the day); Prometheus takes their rates.

export type Metrics = { registry: Registry; requests: Histogram<'method' | 'route' | 'status'> };

export function createMetrics(db: Kysely<Database>, config: Config, now: () => number): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'huiyun_' });
  const requests = new Histogram({
    name: 'huiyun_http_request_duration_seconds', help: 'HTTP answers by route, method and status class', labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry],
  });
  const business = new BusinessStats(db, now);
  const gauge = (name: string, help: string, read: () => Promise<number | null>) => new Gauge({
    name, help, registers: [registry],
    async collect() {
      const value = await read();
      if (value !== null) this.set(value);
    },
  });
  const snapshot = () => business.snapshot();
  gauge('huiyun_devices_online', 'Sending devices seen within the online window', async () => (await snapshot()).devicesOnline);
  gauge('huiyun_machines_online', 'Vending terminals seen within the online window', async () => (await snapshot()).machinesOnline);
  gauge('huiyun_refunds_in_flight', 'Refunds created or under way at the gateway', async () => (await snapshot()).refundsInFlight);
  gauge('huiyun_pay_alarms_today', 'Payment alarms written today (Asia/Shanghai)', async () => (await snapshot()).alarmsToday);
  gauge('huiyun_numbers_sent_today', 'Numbers reported sent today (Asia/Shanghai)', async () => (await dayTotals(db, now())).sent);
  gauge('huiyun_orders_created_today', 'Orders created today (Asia/Shanghai)', async () => (await dayTotals(db, now())).created);
  gauge('huiyun_database_size_bytes', 'The database on disk', async () => (await databaseStats(db, config)).sizeBytes);
  const pool = (field: 'total' | 'idle' | 'waiting') => async () => (await databaseStats(db, config)).pool?.[field] ?? null;
  gauge('huiyun_database_pool_connections', 'PostgreSQL pool: connections open', pool('total'));
  gauge('huiyun_database_pool_idle', 'PostgreSQL pool: connections idle', pool('idle'));
  gauge('huiyun_database_pool_waiting', 'PostgreSQL pool: queries waiting for a connection', pool('waiting'));
  return { registry, requests };
}
