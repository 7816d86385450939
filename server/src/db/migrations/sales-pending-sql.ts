import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';
import { changedSql, measures, pgMeasureTriggerSql, type Measure } from './sales-rollup-sql.ts';

// The counted changes waiting to be folded into the sales rollups (migration 0034). The triggers on pay_order
// append one row a counted change to chart_pending, in the transaction of that change: its key columns, the
// instant it counts at (epoch ms) and what it adds (or, negative, takes back). modules/pay/charts/rollup-fold.ts
// sums them into the six rollups and deletes them, in one transaction. A purchase's write then adds one row to
// a table nothing else writes, instead of upserting six rollup rows that every purchase of its company and day
// shares (each waiting for the last one's commit on PostgreSQL).

export const PENDING_TABLE = 'chart_pending';
/** The key columns of a pending change: every rollup's key is some of them. */
export const pendingKeys = ['deptId', 'machineNo', 'payType', 'goodsName'] as const;
/** What a pending change (and a rollup row) counts. */
export const pendingMeasures = ['createdCount', 'paidCount', 'paidAmount', 'refundAmount'] as const;
const columns = [...pendingKeys, 'at', ...pendingMeasures].map((c) => `"${c}"`).join(', ');

export async function createPendingTable(db: Kysely<any>) {
  // no key: it is only ever appended to and emptied (an index would cost every purchase's write for nothing)
  await db.schema.createTable(PENDING_TABLE)
    .addColumn('deptId', 'integer', (c) => c.notNull())
    .addColumn('machineNo', 'varchar(64)', (c) => c.notNull())
    .addColumn('payType', 'integer', (c) => c.notNull())
    .addColumn('goodsName', 'varchar(128)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('createdCount', 'integer', (c) => c.notNull())
    .addColumn('paidCount', 'integer', (c) => c.notNull())
    .addColumn('paidAmount', 'bigint', (c) => c.notNull())
    .addColumn('refundAmount', 'bigint', (c) => c.notNull())
    .execute();
}

/** What row r (old or new) counts in measure m, as values of a pending row: taken back when sign is -1. */
const valuesOf = (m: Measure, r: 'old' | 'new', sign: 1 | -1) =>
  [...pendingKeys.map((c) => `${r}."${c}"`), m.at(r), ...m.values(r).map((v) => (sign === 1 ? v : `-(${v})`))].join(', ');

/**
 * The triggers: an insert (a delete) appends what its row counts (takes back) in each measure that counts it;
 * an update that changed what a measure counts (changedSql: whether, on which day, under which key, how much)
 * appends the old row taken back and the new one counted. Most updates change nothing counted: no trigger runs.
 */
export function pendingTriggerSql(dialect: DialectName): string[] {
  const keys = [...pendingKeys];
  const insert = `insert into ${PENDING_TABLE} (${columns})`;
  if (dialect === 'sqlite') {
    return measures.flatMap((m) => [
      `create trigger pay_order_pending_insert_${m.name} after insert on pay_order when ${m.counts('new')} begin ${insert} values (${valuesOf(m, 'new', 1)}); end`,
      `create trigger pay_order_pending_delete_${m.name} after delete on pay_order when ${m.counts('old')} begin ${insert} values (${valuesOf(m, 'old', -1)}); end`,
      `create trigger pay_order_pending_update_${m.name} after update on pay_order when ${changedSql(dialect, keys, m)} begin `
        + `${insert} select ${valuesOf(m, 'old', -1)} where ${m.counts('old')} union all select ${valuesOf(m, 'new', 1)} where ${m.counts('new')}; end`,
    ]);
  }
  return pgMeasureTriggerSql('pay_order_pending', keys, (m, r, sign) => `${insert} values (${valuesOf(m, r, sign)});`);
}
