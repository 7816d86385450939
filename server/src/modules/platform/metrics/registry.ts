import cluster from 'node:cluster';
import type { Kysely } from 'kysely';
import { AggregatorRegistry, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { poolStatsOf } from '../../../db/connect.ts';
import type { Config } from '../../../config.ts';
import type { Database } from '../../../db/schema.ts';
import { clusterGathering } from '../../../infra/cluster-gather.ts';
import { unavailableDependency } from '../../../infra/dependency-faults.ts';
import { BusinessStats, dayTotals, databaseStats } from '../../monitor/server/index.ts';
import { readOncePerScrape } from './read-once-per-scrape.ts';
import { jobRunGauges } from './job-run-gauges.ts';
import { poolGauges } from './pool-gauges.ts';

// The figures of 监控查询 for Prometheus (prom-client), in two parts. Each process's own: its default metrics
// (CPU, memory, event-loop lag, handles), every answer by route in a histogram, and its PostgreSQL pool
// (pool-gauges.ts: summed over the processes). The shared ones: the
// database, the business and the background jobs' last runs, gauges read at each scrape. Counts since
// midnight are gauges (they restart with the day); Prometheus takes their rates.
//
// With SERVER_WORKERS one scrape covers every process: the process it reaches gathers each process's own part
// over IPC (infra/cluster-gather.ts) and adds them up with prom-client's AggregatorRegistry.aggregate — the
// request histograms summed, the process metrics kept apart by a `pid` label — then adds the shared part once.

type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

// The shared part needs the database: while it is away or too busy (its pool refuses: db/connection-queue.ts)
// a scrape answers the processes' part alone — the pool's refusals among it — rather than failing whole.
const withoutDatabase = (error: unknown): MetricsJson => {
  if (unavailableDependency(error) === 'database') return [];
  throw error;
};
export type Metrics = { requests: Histogram<'method' | 'route' | 'status'>; text: () => Promise<string>; contentType: string; stop: () => void };

export function createMetrics(db: Kysely<Database>, config: Config, now: () => number): Metrics {
  // this process's default metrics, labelled by pid in a cluster (each process's own series, never added up)
  const processRegistry = new Registry();
  if (cluster.isWorker) processRegistry.setDefaultLabels({ pid: String(process.pid) });
  collectDefaultMetrics({ register: processRegistry, prefix: 'huiyun_' });
  const requestRegistry = new Registry();
  const requests = new Histogram({
    name: 'huiyun_http_request_duration_seconds', help: 'HTTP answers by route, method and status class', labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [requestRegistry],
  });
  const poolRegistry = new Registry();
  if (poolStatsOf(db)) poolGauges(() => poolStatsOf(db), poolRegistry);
  const ownPart = async (): Promise<MetricsJson> => [
    // one series a process: kept whatever prom-client would do with several (process_start_time is 'omit')
    ...(await processRegistry.getMetricsAsJSON()).map((metric) => ({ ...metric, aggregator: 'first' as const })),
    ...(await requestRegistry.getMetricsAsJSON()),
    ...(await poolRegistry.getMetricsAsJSON()),
  ];
  const processes = clusterGathering('metrics', ownPart);

  const shared = new Registry();
  const business = new BusinessStats(db, now);
  const gauge = (name: string, help: string, read: () => Promise<number | null>) => new Gauge({
    name, help, registers: [shared],
    async collect() {
      const value = await read();
      if (value !== null) this.set(value);
    },
  });
  // one read of each kind a scrape, whatever the number of gauges showing parts of it
  const snapshot = readOncePerScrape(() => business.snapshot());
  const today = readOncePerScrape(() => dayTotals(db, now()));
  const database = readOncePerScrape(() => databaseStats(db, config));
  gauge('huiyun_devices_online', 'Sending devices seen within the online window', async () => (await snapshot()).devicesOnline);
  gauge('huiyun_machines_online', 'Vending terminals seen within the online window', async () => (await snapshot()).machinesOnline);
  gauge('huiyun_refunds_in_flight', 'Refunds created or under way at the gateway', async () => (await snapshot()).refundsInFlight);
  gauge('huiyun_pay_alarms_today', 'Payment alarms written today (Asia/Shanghai)', async () => (await snapshot()).alarmsToday);
  gauge('huiyun_numbers_sent_today', 'Numbers reported sent today (Asia/Shanghai)', async () => (await today()).sent);
  gauge('huiyun_orders_created_today', 'Orders created today (Asia/Shanghai)', async () => (await today()).created);
  gauge('huiyun_database_size_bytes', 'The database on disk', async () => (await database()).sizeBytes);
  jobRunGauges(db, shared);

  return {
    requests,
    contentType: shared.contentType,
    text: async () => {
      const [parts, sharedPart] = await Promise.all([processes.all(), shared.getMetricsAsJSON().catch(withoutDatabase)]);
      return AggregatorRegistry.aggregate([...parts, sharedPart]).metrics();
    },
    stop: () => processes.stop(),
  };
}
