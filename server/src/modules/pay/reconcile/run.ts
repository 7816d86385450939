import { fill, messages, ReconcileResult, shanghaiDay } from '@huiyun/contract';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { PayAccount, PaymentGateway, Bill, BillRow } from '../gateways/index.ts';
import { compareDay, type Comparison, type Difference } from './match.ts';
import { DAY_MS, dayBounds, oursByNumber, oursOfDay } from './platform.ts';
import { reconcileDb, type ReconcileDb } from './tables.ts';

// A run of 对账 for (day, 支付配置): claim the run's row, download the gateway's bill, compare it with our
// side (match.ts), then write the counts and the differences in one transaction. Several instances (the daily
// job on each, a button) agree through the row: the unique (day, configId) and a lease — a run under way
// is taken over only when its lease ran out, and its finish is written only while the claim is still its own.
// A re-run replaces the run's differences and keeps the handled note of one that reappears. A difference
// never changes an order: nothing here writes pay_order.

const m = messages.reconcile;
/** How long a run may take before another instance may take it over. */
const LEASE_MS = 10 * 60_000;

export type RunMode = 'button' | 'job';
/** accountOf: the 支付配置 with its secrets opened (gateway/config-loader.ts), as the gateways take it. */
export type ReconcileDeps = { db: Kysely<Database>; now: () => number; gatewayOf: (name: string) => PaymentGateway<PayAccount> | undefined; accountOf: (id: number) => Promise<PayAccount | undefined>; onError?: (error: unknown) => void };
type ConfigRow = { id: number; deptId: number; name: string; gateway: string };
type Claim = { runId: number; lease: number };

/** The rows of the day's run of `config`, claimed; undefined when another holds it (or, for the job, it is done). */
async function claim(db: ReconcileDb, config: ConfigRow, day: string, by: string, now: number, mode: RunMode): Promise<Claim | undefined> {
  const lease = now + LEASE_MS;
  const fresh = { result: ReconcileResult.running, runBy: by, leaseUntil: lease, startTime: now, finishTime: null, deptId: config.deptId, gateway: config.gateway };
  const inserted = await db.insertInto('pay_reconcile_run').values({ day, configId: config.id, ...fresh })
    .onConflict((oc) => oc.columns(['day', 'configId']).doNothing()).returning('runId').executeTakeFirst();
  if (inserted) return { runId: inserted.runId, lease };
  const expired = sql<boolean>`("result" = ${ReconcileResult.running} and "leaseUntil" < ${now})`;
  // the button runs a finished day again; the job only one that failed (or whose run died)
  const retake = mode === 'button' ? sql<boolean>`("result" <> ${ReconcileResult.running} or ${expired})` : sql<boolean>`("result" = ${ReconcileResult.failed} or ${expired})`;
  const taken = await db.updateTable('pay_reconcile_run').set(fresh).where('day', '=', day).where('configId', '=', config.id).where(retake)
    .returning('runId').executeTakeFirst();
  return taken ? { runId: taken.runId, lease } : undefined;
}

const diffKey = (d: { category: string; kind: string; orderNo: string; refundNo: string }) => `${d.category}\n${d.kind}\n${d.orderNo}\n${d.refundNo}`;

/** Writes a run's outcome, if the claim is still its own; answers whether it was. */
async function finish(db: ReconcileDb, run: Claim, now: number, outcome: { comparison?: Comparison; message?: string }): Promise<boolean> {
  const { comparison } = outcome;
  return db.transaction().execute(async (trx) => {
    const result = !comparison ? ReconcileResult.failed : comparison.differences.length ? ReconcileResult.different : ReconcileResult.matched;
    const counts = comparison
      ? { platformCount: comparison.platform.count, platformAmount: comparison.platform.amount, gatewayCount: comparison.gateway.count, gatewayAmount: comparison.gateway.amount, diffCount: comparison.differences.length }
      : {};
    const mine = await trx.updateTable('pay_reconcile_run').set({ result, ...counts, message: (outcome.message ?? '').slice(0, 255), leaseUntil: 0, finishTime: now })
      .where('runId', '=', run.runId).where('leaseUntil', '=', run.lease).executeTakeFirst();
    if (Number(mine.numUpdatedRows) !== 1) return false;
    if (!comparison) return true; // a failed download keeps the differences found before
    const kept = await trx.selectFrom('pay_reconcile_diff').select(['category', 'kind', 'orderNo', 'refundNo', 'handleNote', 'handledBy', 'handledTime'])
      .where('runId', '=', run.runId).where('handled', '=', 1).execute();
    const notes = new Map(kept.map((k) => [diffKey(k), k]));
    await trx.deleteFrom('pay_reconcile_diff').where('runId', '=', run.runId).execute();
    const rows = comparison.differences.map((d: Difference) => {
      const note = notes.get(diffKey(d));
      return { runId: run.runId, ...d, handled: note ? 1 : 0, handleNote: note?.handleNote ?? '', handledBy: note?.handledBy ?? '', handledTime: note?.handledTime ?? null };
    });
    for (let i = 0; i < rows.length; i += 100) await trx.insertInto('pay_reconcile_diff').values(rows.slice(i, i + 100)).execute();
    return true;
  });
}

/** The bill of a day, or an empty one when it cannot be had (the days around a run's day only). */
const billOrEmpty = (download: (day: string) => Promise<Bill>, day: string): Promise<BillRow[]> => download(day).then((bill) => bill.rows, () => []);

async function reconcileConfig(deps: ReconcileDeps, db: ReconcileDb, config: ConfigRow, day: string, run: Claim): Promise<number> {
  const gateway = deps.gatewayOf(config.gateway);
  const gatewayConfig = await deps.accountOf(config.id);
  if (!gateway?.downloadBill || !gatewayConfig) {
    await finish(db, run, deps.now(), { message: m.noBill });
    return 0;
  }
  const download = (d: string) => gateway.downloadBill!(gatewayConfig, d);
  let bill: Bill;
  try {
    bill = await download(day);
  } catch (error) {
    await finish(db, run, deps.now(), { message: fill(m.billFailed, { reason: error instanceof Error ? error.message : String(error) }) });
    return 0;
  }
  const { from } = dayBounds(day);
  const comparison = await compareDay(bill, {
    ours: await oursOfDay(deps.db, config.id, day),
    find: (kind, numbers) => oursByNumber(deps.db, kind, numbers),
    neighbourRows: async () => (await Promise.all([shanghaiDay(from - DAY_MS), shanghaiDay(from + DAY_MS)].map((d) => billOrEmpty(download, d)))).flat(),
  });
  return (await finish(db, run, deps.now(), { comparison })) ? comparison.differences.length : 0;
}

export type RunAnswer = { runs: number; diffs: number; busy: number };

/**
 * Reconciles `day` for the given 支付配置 ids (all when undefined), one after another. `by`: who (the
 * operator's name, or the job's). Answers how many runs were made, their differences, and how many were
 * held by another run.
 */
export async function reconcileDay(deps: ReconcileDeps, input: { day: string; configIds?: number[]; by: string; mode: RunMode }): Promise<RunAnswer> {
  const db = reconcileDb(deps.db);
  let query = db.selectFrom('pay_config').select(['id', 'deptId', 'name', 'gateway']).orderBy('id');
  if (input.configIds) {
    if (input.configIds.length === 0) return { runs: 0, diffs: 0, busy: 0 };
    query = query.where('id', 'in', input.configIds);
  }
  const answer: RunAnswer = { runs: 0, diffs: 0, busy: 0 };
  for (const config of await query.execute()) {
    const run = await claim(db, config, input.day, input.by, deps.now(), input.mode);
    if (!run) {
      answer.busy++;
      continue;
    }
    try {
      answer.diffs += await reconcileConfig(deps, db, config, input.day, run);
    } catch (error) {
      // recorded on the run (失败 with its reason); the other configs still run
      await finish(db, run, deps.now(), { message: fill(m.billFailed, { reason: error instanceof Error ? error.message : String(error) }) }).catch(() => false);
      deps.onError?.(error);
    }
    answer.runs++;
  }
  return answer;
}
