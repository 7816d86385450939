import { sql, type Kysely } from 'kysely';
import { DEVICE_ONLINE_SECONDS, MACHINE_ONLINE_WINDOW_MS, OrderStatus, shanghaiDay, type SystemSnapshot } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { foldSalesRollups, shanghaiDayNumber, withChartTables } from '../../pay/charts/index.ts';

// The business at a glance. Per-minute figures come from the day's running totals (numbers sent: sync_send_daily;
// orders created: the 数据可视化 rollups), sampled every SAMPLE_MS: the total now less the total a minute
// ago — a read of a few rows, never a count over the numbers or the orders.

const SAMPLE_MS = 10_000;
const MINUTE = 60_000;
type Sample = { at: number; day: number; sent: number; created: number };

export async function dayTotals(db: Kysely<Database>, now: number): Promise<Sample> {
  const day = shanghaiDayNumber(now);
  await foldSalesRollups(db);
  const [sent, created] = await Promise.all([
    db.selectFrom('sync_send_daily').select(sql<string | number>`coalesce(sum("sendCount"), 0)`.as('total')).where('day', '=', shanghaiDay(now)).executeTakeFirst(),
    withChartTables(db).selectFrom('chart_sales_day').select(sql<string | number>`coalesce(sum("createdCount"), 0)`.as('total')).where('day', '=', day).executeTakeFirst(),
  ]);
  return { at: now, day, sent: Number(sent?.total ?? 0), created: Number(created?.total ?? 0) };
}

export class BusinessStats {
  private samples: Sample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly db: Kysely<Database>;
  private readonly now: () => number;
  constructor(db: Kysely<Database>, now: () => number) {
    this.db = db;
    this.now = now;
  }

  start() {
    const sample = () => void this.sample().catch(() => {}); // a failed sample leaves a gap, nothing more
    sample();
    this.timer = setInterval(sample, SAMPLE_MS).unref();
  }
  stop() {
    clearInterval(this.timer);
  }

  async sample(): Promise<Sample> {
    const totals = await dayTotals(this.db, this.now());
    this.samples = [...this.samples.filter((s) => s.at >= totals.at - 2 * MINUTE), totals];
    return totals;
  }

  /** What changed since the sample a minute old (null before there is one; across midnight, today's total). */
  private lastMinute(latest: Sample, field: 'sent' | 'created'): number | null {
    const old = this.samples.find((s) => s.at <= latest.at - MINUTE + SAMPLE_MS / 2);
    if (!old) return null;
    return old.day === latest.day ? latest[field] - old[field] : latest[field];
  }

  async snapshot(): Promise<Omit<SystemSnapshot['business'], 'jobs'>> {
    const now = this.now();
    const latest = await this.sample();
    const count = sql<string | number>`count(*)`.as('n');
    const [devices, machines, refunds, alarms] = await Promise.all([
      this.db.selectFrom('sync_auth_code').select(count).where('lastSeenAt', '>=', now - DEVICE_ONLINE_SECONDS * 1000).executeTakeFirst(),
      this.db.selectFrom('pay_machine').select(count).where('lastSeenAt', '>=', now - MACHINE_ONLINE_WINDOW_MS).executeTakeFirst(),
      this.db.selectFrom('pay_order').select(count).where('orderStatus', 'in', [sql.lit(OrderStatus.refundCreated), sql.lit(OrderStatus.refunding)]).executeTakeFirst(),
      this.db.selectFrom('pay_alarm').select(count).where('createTime', '>=', (shanghaiDayNumber(now) * 86_400_000) - 8 * 3_600_000).executeTakeFirst(),
    ]);
    return {
      devicesOnline: Number(devices?.n ?? 0), machinesOnline: Number(machines?.n ?? 0),
      sentLastMinute: this.lastMinute(latest, 'sent'), ordersLastMinute: this.lastMinute(latest, 'created'),
      refundsInFlight: Number(refunds?.n ?? 0), alarmsToday: Number(alarms?.n ?? 0),
    };
  }
}
