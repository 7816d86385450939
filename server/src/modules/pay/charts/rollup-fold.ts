import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { dialectOf, type DialectName } from '../../../db/dialect.ts';
import { runPeriodically } from '../../../db/periodic.ts';
import { sharedTransaction } from '../../../db/shared-commit.ts';
import { salesRollups } from '../../../db/migrations/0031_sales_month_rollups.ts';
import { PENDING_TABLE, pendingMeasures as measures } from '../../../db/migrations/sales-pending-sql.ts';
import { periodSql, type RollupTable } from '../../../db/migrations/sales-rollup-sql.ts';

// The counted order changes waiting in chart_pending (migration 0034), summed into the six sales rollups and
// deleted, in one transaction. Whatever reads the rollups folds first (foldSalesRollups), so a read sees every
// change committed before it, as when the triggers kept the rollups; the server also folds every few seconds
// (startRollupFolding), so the pending rows stay few and a read's fold short.
//
// Several server processes may fold at once (PostgreSQL): one statement deletes the pending rows it sees and
// adds their sums. A second fold waits on the rows the first is deleting and skips them once it commits, so a
// change is folded once; the sums are added in the order of the rollup's key, so two folds never wait on each
// other in a circle.

/** The upsert adding the sums of `source`'s rows to one rollup. */
function addSumsSql(dialect: DialectName, table: RollupTable, source: string): string {
  const key = table.key.map((c) => `"${c}"`);
  const grouped = key.map((_, i) => i + 1).concat(key.length + 1).join(', ');
  const add = measures.map((c) => `"${c}" = ${table.name}."${c}" + excluded."${c}"`).join(', ');
  return `insert into ${table.name} (${[...key, `"${table.period}"`, ...measures.map((c) => `"${c}"`)].join(', ')})`
    + ` select ${[...key, periodSql(dialect, table.period, '"at"'), ...measures.map((c) => `sum("${c}")`)].join(', ')}`
    + ` from ${source} where true group by ${grouped} order by ${grouped}`
    + ` on conflict (${[`"${table.period}"`, ...key].join(', ')}) do update set ${add}`;
}

const postgresFold = sql.raw(`with moved as (delete from ${PENDING_TABLE} returning *), `
  + salesRollups.map((t, i) => `add${i} as (${addSumsSql('postgres', t, 'moved')})`).join(', ')
  + ' select count(*)::integer as "folded" from moved');
const sqliteFolds = salesRollups.map((t) => sql.raw(addSumsSql('sqlite', t, PENDING_TABLE)));

/** Folds what is pending into the rollups; answers how many pending changes it folded. */
export async function foldSalesRollups(db: Kysely<Database>): Promise<number> {
  if (dialectOf(db) === 'postgres') {
    const { rows } = await postgresFold.execute(db);
    return (rows[0] as { folded: number }).folded;
  }
  // nothing pending (a chart read while nothing sells): no transaction
  const { rows: waiting } = await sql<{ n: number }>`select exists (select 1 from ${sql.table(PENDING_TABLE)}) as "n"`.execute(db);
  if (Number(waiting[0]?.n ?? 0) === 0) return 0;
  // the server's one SQLite connection runs one work at a time: nothing is appended between the sums and the delete
  return sharedTransaction(db, async (trx) => {
    for (const fold of sqliteFolds) await fold.execute(trx);
    const { numAffectedRows } = await sql`delete from ${sql.table(PENDING_TABLE)}`.execute(trx);
    return Number(numAffectedRows ?? 0);
  });
}

/** How often the server folds on its own (ms): a read folds the rest. */
export const FOLD_EVERY_MS = 2_000;

/** Folds every `everyMs` in the background (each server process; see above for several at once). */
export function startRollupFolding(db: Kysely<Database>, options: { everyMs?: number; onError?: (error: unknown) => void } = {}) {
  return runPeriodically(() => foldSalesRollups(db).then(() => {}, (error: unknown) => options.onError?.(error)), options.everyMs ?? FOLD_EVERY_MS);
}
