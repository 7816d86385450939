import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

// The SQL of the sales rollups (migrations 0025 and 0031): their tables, the triggers on pay_order that keep
// them in the transaction of each order change they count, and the backfill that counts the orders already
// there exactly as the triggers would have. A rollup is keyed by some of pay_order's columns and a period:
// an Asia/Shanghai day (days since 1970-01-01 there) or an Asia/Shanghai month (YYYYMM, e.g. 202611).

export type RollupPeriod = 'day' | 'month';
export type RollupTable = { name: string; key: string[]; period: RollupPeriod };

const keyColumnTypes: Record<string, 'integer' | 'varchar(64)' | 'varchar(128)'> = { deptId: 'integer', machineNo: 'varchar(64)', payType: 'integer', goodsName: 'varchar(128)' };
const SHANGHAI_OFFSET_MS = 28_800_000;

/**
 * The period an epoch-ms column falls in, in Asia/Shanghai (a fixed +8 h, whatever the server's zone): the
 * day number in integer arithmetic; the month as YYYYMM from the UTC calendar of the shifted instant.
 */
export function periodSql(dialect: DialectName, period: RollupPeriod, column: string): string {
  if (period === 'day') return `((${column} + ${SHANGHAI_OFFSET_MS}) / 86400000)`;
  const seconds = `((${column} + ${SHANGHAI_OFFSET_MS}) / 1000)`;
  return dialect === 'postgres'
    ? `(to_char(to_timestamp(${seconds}) at time zone 'UTC', 'YYYYMM')::integer)`
    : `cast(strftime('%Y%m', ${seconds}, 'unixepoch') as integer)`;
}

export async function createRollupTable(db: Kysely<any>, table: RollupTable) {
  let create = db.schema.createTable(table.name);
  for (const column of table.key) create = create.addColumn(column, keyColumnTypes[column]!, (c) => c.notNull());
  await create
    .addColumn(table.period, 'integer', (c) => c.notNull())
    .addColumn('createdCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paidCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paidAmount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refundAmount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint(`${table.name}_pk`, [table.period, ...table.key] as never)
    .execute();
  // a company's or a terminal's periods (the filters); every company's periods read the primary key
  await db.schema.createIndex(`${table.name}_dept`).on(table.name).columns(['deptId', table.period]).execute();
  if (table.key.includes('machineNo')) await db.schema.createIndex(`${table.name}_machine`).on(table.name).columns(['machineNo', table.period]).execute();
}

/** The orders already there, counted into an empty rollup as the triggers would have counted them. */
export async function backfillRollup(db: Kysely<any>, dialect: DialectName, table: RollupTable) {
  const key = table.key.map((c) => `"${c}"`).join(', ');
  const period = (column: string) => periodSql(dialect, table.period, column);
  await sql.raw(`
    insert into ${table.name} (${key}, "${table.period}", "createdCount", "paidCount", "paidAmount", "refundAmount")
    select ${key}, "p", sum(c), sum(pc), sum(pa), sum(ra) from (
      select ${key}, ${period('"createTime"')} as "p", 1 as c, 0 as pc, 0 as pa, 0 as ra from pay_order where "transType" = 1
      union all
      select ${key}, ${period('"payTime"')}, 0, 1, "payAmount", 0 from pay_order where "transType" = 1 and "payTime" is not null
      union all
      select ${key}, ${period('coalesce("payTime", "createTime")')}, 0, 0, 0, -"payAmount" from pay_order where "transType" = 2 and "orderStatus" = 13
    ) counted group by ${key}, "p"
  `).execute(db);
}

/**
 * One count a pay_order row adds to the rollups: `counts` (SQL, for row r = old or new) whether it does,
 * `at` at which instant (epoch ms), `values` what it adds (createdCount, paidCount, paidAmount, refundAmount).
 */
export type Measure = { name: string; counts: (r: string) => string; at: (r: string) => string; values: (r: string) => [string, string, string, string]; amount: (r: string) => string };
export const measures: Measure[] = [
  { // created: a sale's order (a QR code shown), when it was made
    name: 'created', counts: (r) => `${r}."transType" = 1`, at: (r) => `${r}."createTime"`,
    values: () => ['1', '0', '0', '0'], amount: () => '0',
  },
  { // paid: a sale's payment, when it was paid; a late payment (to a closed order) too: its money came, and
    // its automatic refund is counted as a refund
    name: 'paid', counts: (r) => `(${r}."transType" = 1 and ${r}."payTime" is not null)`, at: (r) => `${r}."payTime"`,
    values: (r) => ['0', '1', `${r}."payAmount"`, '0'], amount: (r) => `${r}."payAmount"`,
  },
  { // refunded: a refund row (negative payAmount) once 13 退款成功, when it succeeded (its payTime)
    name: 'refunded', counts: (r) => `(${r}."transType" = 2 and ${r}."orderStatus" = 13)`, at: (r) => `coalesce(${r}."payTime", ${r}."createTime")`,
    values: (r) => ['0', '0', '0', `-${r}."payAmount"`], amount: (r) => `${r}."payAmount"`,
  },
];

/** The SQL of adding (sign 1) or taking back (-1) what row r counts in one measure, when `when` holds. */
function applySql(dialect: DialectName, table: RollupTable, measure: Measure, r: string, sign: 1 | -1, when: string): string {
  const columns = [...table.key.map((c) => `"${c}"`), `"${table.period}"`, '"createdCount"', '"paidCount"', '"paidAmount"', '"refundAmount"'];
  const values = [...table.key.map((c) => `${r}."${c}"`), periodSql(dialect, table.period, measure.at(r)), ...measure.values(r).map((v) => (sign === 1 ? v : `-(${v})`))];
  const add = ['createdCount', 'paidCount', 'paidAmount', 'refundAmount'].map((c) => `"${c}" = ${table.name}."${c}" + excluded."${c}"`).join(', ');
  const conflict = `on conflict ("${table.period}", ${table.key.map((c) => `"${c}"`).join(', ')}) do update set ${add}`;
  if (dialect === 'postgres') {
    const insert = `insert into ${table.name} (${columns.join(', ')}) values (${values.join(', ')}) ${conflict};`;
    return when === 'true' ? insert : `if ${when} then ${insert} end if;`;
  }
  return `insert into ${table.name} (${columns.join(', ')}) select ${values.join(', ')} where ${when} ${conflict};`;
}

/** Whether an update changed what the row counts in a measure, for rollups keyed by (some of) `key` per day (or coarser). */
export function changedSql(dialect: DialectName, key: string[], measure: Measure): string {
  const differ = (a: string, b: string) => (dialect === 'postgres' ? `${a} is distinct from ${b}` : `${a} is not ${b}`);
  const moved = [...key.map((c) => differ(`old."${c}"`, `new."${c}"`)), differ(periodSql(dialect, 'day', measure.at('old')), periodSql(dialect, 'day', measure.at('new')))];
  return `((${measure.counts('old')}) <> (${measure.counts('new')}) or (${measure.counts('new')} and (${[...moved, differ(measure.amount('old'), measure.amount('new'))].join(' or ')})))`;
}

/**
 * The triggers keeping `tables`, one set per measure, so that a change is looked at once per measure and not
 * once per rollup: an insert (a delete) counts its row in (out) where the measure counts it; an update that
 * changed what the measure counts (whether, on which day, under which key, how much — on the union of the
 * rollups' keys: a month changes only where the day does) takes back what the old row counted from every
 * rollup and counts the new one (where a rollup's own key and period did not move, the two cancel). Most
 * updates change nothing counted (a dispense, a claim): no trigger body runs for them.
 */
export function rollupTriggerSql(dialect: DialectName, tables: RollupTable[]): string[] {
  const allKeys = [...new Set(tables.flatMap((t) => t.key))];
  const apply = (m: Measure, r: 'old' | 'new', sign: 1 | -1, when: string) => tables.map((t) => applySql(dialect, t, m, r, sign, when));
  if (dialect === 'sqlite') {
    return measures.flatMap((m) => [
      `create trigger pay_order_rollup_insert_${m.name} after insert on pay_order when ${m.counts('new')} begin ${apply(m, 'new', 1, '1').join(' ')} end`,
      `create trigger pay_order_rollup_delete_${m.name} after delete on pay_order when ${m.counts('old')} begin ${apply(m, 'old', -1, '1').join(' ')} end`,
      `create trigger pay_order_rollup_update_${m.name} after update on pay_order when ${changedSql(dialect, allKeys, m)} begin `
        + `${[...apply(m, 'old', -1, m.counts('old')), ...apply(m, 'new', 1, m.counts('new'))].join(' ')} end`,
    ]);
  }
  return pgMeasureTriggerSql('pay_order_rollup', allKeys, (m, r, sign) => apply(m, r, sign, 'true').join(' '));
}

/**
 * PostgreSQL: the function `name` and its two triggers on pay_order (`name`_insert_delete, `name`_update): an
 * insert (a delete) counts (takes back) its row in each measure that counts it; an update that changed what a
 * measure counts (changedSql, on `keys`) takes back the old row and counts the new one. `count(m, r, sign)`: the
 * statements counting row r in measure m (sign -1: taking it back).
 */
export function pgMeasureTriggerSql(name: string, keys: string[], count: (m: Measure, r: 'old' | 'new', sign: 1 | -1) => string): string[] {
  const onInsert = measures.map((m) => `if ${m.counts('new')} then ${count(m, 'new', 1)} end if;`);
  const onDelete = measures.map((m) => `if ${m.counts('old')} then ${count(m, 'old', -1)} end if;`);
  const onUpdate = measures.map((m) => `if ${changedSql('postgres', keys, m)} then `
    + `if ${m.counts('old')} then ${count(m, 'old', -1)} end if; if ${m.counts('new')} then ${count(m, 'new', 1)} end if; end if;`);
  return [
    `create function ${name}() returns trigger language plpgsql as $$ begin
      if tg_op = 'INSERT' then ${onInsert.join(' ')}
      elsif tg_op = 'DELETE' then ${onDelete.join(' ')}
      else ${onUpdate.join(' ')}
      end if;
      return null;
    end $$`,
    `create trigger ${name}_insert_delete after insert or delete on pay_order for each row execute function ${name}()`,
    `create trigger ${name}_update after update on pay_order for each row when (${measures.map((m) => changedSql('postgres', keys, m)).join(' or ')}) execute function ${name}()`,
  ];
}

/**
 * Drops the triggers of the rollups, as rollupTriggerSql makes them now or made them before 2026-11-27 (one
 * trigger per event; databases migrated then have those), for a later migration to recreate them.
 */
export function dropRollupTriggerSql(dialect: DialectName): string[] {
  if (dialect === 'postgres') {
    return ['drop trigger if exists pay_order_rollup_insert_delete on pay_order', 'drop trigger if exists pay_order_rollup_update on pay_order', 'drop function if exists pay_order_rollup()'];
  }
  const names = ['insert', 'delete', 'update'].flatMap((event) => [`pay_order_rollup_${event}`, ...measures.map((m) => `pay_order_rollup_${event}_${m.name}`)]);
  return names.map((name) => `drop trigger if exists ${name}`);
}
