import { z } from 'zod';
import { chartGranularities } from '../enums.ts';
import { yuan } from './envelope.ts';

// The answers of 数据可视化 (POST /api/Charts/*) and 监控查询 (GET /api/SystemMonitor/snapshot): the one
// definition of each shape; salesCharts.ts and systemMonitor.ts's types of the same name are their z.output.

const count = z.number().int();

/**
 * - `createdCount`: Orders created (QR codes shown): the "clicks".
 * - `amount`: Paid minus refunded, yuan.
 */
export const salesPoint = z.object({ period: z.string(), createdCount: count, paidCount: count, amount: yuan, paidAmount: yuan, refundAmount: yuan });
export const salesCard = z.object({ key: z.enum(['today', 'yesterday', 'month']), amount: yuan, count, previousAmount: yuan, previousCount: count });
export const salesRank = z.object({ key: z.string(), name: z.string(), amount: yuan, count });
export const payShare = z.object({ payType: z.number().int(), label: z.string(), amount: yuan, count });
/**
 * - `from`: The days the series covers, 'YYYY-MM-DD'.
 */
export const salesCharts = z.object({
  granularity: z.enum(chartGranularities), from: z.string(), to: z.string(), series: z.array(salesPoint), cards: z.array(salesCard),
  topMachines: z.array(salesRank), topGoods: z.array(salesRank), payShare: z.array(payShare),
});
export const salesChartsOptions = z.object({
  depts: z.array(z.object({ deptId: z.number().int(), deptName: z.string() })),
  machines: z.array(z.object({ machineNo: z.string(), machineName: z.string(), deptId: z.number().int() })),
});

const bytes = z.number();
export const routeStats = z.object({ route: z.string(), count, errors: count, p50: z.number(), p95: z.number(), p99: z.number() });
/**
 * - `cpuPercent`: Of one core, since the last snapshot (or the start): 0–100 × cores.
 */
export const processFigures = z.object({
  pid: count, uptimeSeconds: z.number(),
  rss: bytes, heapUsed: bytes, heapTotal: bytes, cpuPercent: z.number(),
  eventLoop: z.object({ p50: z.number(), p99: z.number(), max: z.number() }),
  connections: count.nullable(),
});
export const jobRunView = z.object({
  job: z.enum(['orderSweep', 'logRetention', 'reconcile']), startTime: z.string(), durationMs: z.number(), ok: z.boolean(),
  summary: z.string(), error: z.string(), pid: count, failTime: z.string().nullable(), failError: z.string(),
});
/**
 * - `server`: The process that answered, and (`processes`, by pid) every server process — more than one with SERVER_WORKERS.
 * - `slowest`: PostgreSQL with pg_stat_statements loaded; null otherwise.
 * - `sentLastMinute`: null until the server has run a minute.
 * - `jobs`: The last run of each background job that has run (the order sweep, the log retention, the daily 对账).
 */
export const systemSnapshot = z.object({
  time: z.string(),
  server: z.object({ version: z.string(), node: z.string(), workers: count, processes: z.array(processFigures) }).extend(processFigures.shape),
  requests: z.array(routeStats),
  database: z.object({
    kind: z.enum(['sqlite', 'postgres']),
    sizeBytes: bytes.nullable(),
    pool: z.object({ total: count, idle: count, waiting: count }).nullable(),
    slowest: z.array(z.object({ statement: z.string(), calls: count, meanMs: z.number() })).nullable(),
  }),
  redis: z.object({ clients: count, usedMemory: bytes }).nullable(),
  business: z.object({
    devicesOnline: count, machinesOnline: count, sentLastMinute: count.nullable(), ordersLastMinute: count.nullable(),
    refundsInFlight: count, alarmsToday: count, jobs: z.array(jobRunView),
  }),
});
