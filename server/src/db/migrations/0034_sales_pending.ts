import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { createPendingTable, pendingTriggerSql } from './sales-pending-sql.ts';
import { dropRollupTriggerSql } from './sales-rollup-sql.ts';

// The sales rollups out of the purchase's transaction. The triggers of 0025 / 0031 upserted six
// rollup rows in every counted order change (a quarter of PostgreSQL's CPU in a purchase, and a wait on the
// company's day row for every purchase of that company); from here they append the change to chart_pending,
// and modules/pay/charts/rollup-fold.ts folds it into the rollups before every read of them and every few
// seconds. The rollups are exact up to now when this runs (the old triggers kept them): nothing is pending.
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await createPendingTable(db);
  for (const statement of dropRollupTriggerSql(dialect)) await sql.raw(statement).execute(db);
  for (const statement of pendingTriggerSql(dialect)) await sql.raw(statement).execute(db);
}
