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
type Measure = { counts: (r: string) => string; at: (r: string) => string; values: (r: string) => [string, string, string, string]; amount: (r: string) => string };
const measures: Measure[] = [
  { // created: a sale's order (a QR code shown), when it was made
    counts: (r) => `${r}."transType" = 1`, at: (r) => `${r}."createTime"`,
    values: () => ['1', '0', '0', '0'], amount: () => '0',
  },
  { // paid: a sale's payment, when it was paid; a late payment (to a closed order) too: its money came, and
    // its automatic refund is counted as a refund
    counts: (r) => `(${r}."transType" = 1 and ${r}."payTime" is not null)`, at: (r) => `${r}."payTime"`,
    values: (r) => ['0', '1', `${r}."payAmount"`, '0'], amount: (r) => `${r}."payAmount"`,
  },
  { // refunded: a refund row (negative payAmount) once 13 退款成功, when it succeeded (its payTime)
    counts: (r) => `(${r}."transType" = 2 and ${r}."orderStatus" = 13)`, at: (r) => `coalesce(${r}."payTime", ${r}."createTime")`,
    values: (r) => ['0', '0', '0', `-${r}."payAmount"`], amount: (r) => `${r}."payAmount"`,
  },
];

/** The SQL of adding (sign 1) or taking back (-1) what row r counts in one measure, when `when` holds. */
function applySql(dialect: DialectName, table: RollupTable, measure: Measure, r: string, sign: 1 | -1, when: string): string {
  const columns = [...table.key.map((c) => `"${c}"`), `"${table.period}"`, '"createdCount"', '"paidCount"', '"paidAmount"', '"refundAmount"'];
  const values = [...table.key.map((c) => `${r}."${c}"`), periodSql(dialect, table.period, measure.at(r)), ...measure.values(r).map((v) => (sign === 1 ? v : `-(${v})`))];
  const add = ['createdCount', 'paidCount', 'paidAmount', 'refundAmount'].map((c) => `"${c}" = ${table.name}."${c}" + excluded."${c}"`).join(', ');
  const conflict = `on conflict ("${table.period}", ${table.key.map((c) => `"${c}"`).join(', ')}) do update set ${add}`;
  return dialect === 'postgres'
    ? `if ${when} then insert into ${table.name} (${columns.join(', ')}) values (${values.join(', ')}) ${conflict}; end if;`
    : `insert into ${table.name} (${columns.join(', ')}) select ${values.join(', ')} where ${when} ${conflict};`;
}

/** Whether an update changed what the row counts in a measure, for rollups keyed by `key` per `period`. */
function changedSql(dialect: DialectName, key: string[], period: RollupPeriod, measure: Measure): string {
  const differ = (a: string, b: string) => (dialect === 'postgres' ? `${a} is distinct from ${b}` : `${a} is not ${b}`);
  const moved = [...key.map((c) => differ(`old."${c}"`, `new."${c}"`)), differ(periodSql(dialect, period, measure.at('old')), periodSql(dialect, period, measure.at('new')))];
  return `((${measure.counts('old')}) <> (${measure.counts('new')}) or (${measure.counts('new')} and (${[...moved, differ(measure.amount('old'), measure.amount('new'))].join(' or ')})))`;
}

/**
 * The triggers keeping `tables`: an insert or a delete counts its row in or out, an update takes back what
 * the old row counted and counts the new one where that changed (most updates change nothing counted: a
 * dispense, a claim, and the update trigger's `when` skips them — checked on the union of the keys by day,
 * as a month changes only where the day does).
 */
export function rollupTriggerSql(dialect: DialectName, tables: RollupTable[]): string[] {
  const insertSql = tables.flatMap((t) => measures.map((m) => applySql(dialect, t, m, 'new', 1, m.counts('new'))));
  const deleteSql = tables.flatMap((t) => measures.map((m) => applySql(dialect, t, m, 'old', -1, m.counts('old'))));
  const updateSql = tables.flatMap((t) => measures.flatMap((m) => {
    const changed = changedSql(dialect, t.key, t.period, m);
    return [applySql(dialect, t, m, 'old', -1, `${m.counts('old')} and ${changed}`), applySql(dialect, t, m, 'new', 1, `${m.counts('new')} and ${changed}`)];
  }));
  const allKeys = [...new Set(tables.flatMap((t) => t.key))];
  const anyChange = measures.map((m) => changedSql(dialect, allKeys, 'day', m)).join(' or ');
  if (dialect === 'sqlite') {
    return [
      `create trigger pay_order_rollup_insert after insert on pay_order begin ${insertSql.join(' ')} end`,
      `create trigger pay_order_rollup_delete after delete on pay_order begin ${deleteSql.join(' ')} end`,
      `create trigger pay_order_rollup_update after update on pay_order when ${anyChange} begin ${updateSql.join(' ')} end`,
    ];
  }
  return [
    `create function pay_order_rollup() returns trigger language plpgsql as $$ begin
      if tg_op = 'INSERT' then ${insertSql.join(' ')}
      elsif tg_op = 'DELETE' then ${deleteSql.join(' ')}
      else ${updateSql.join(' ')}
      end if;
      return null;
    end $$`,
    'create trigger pay_order_rollup_insert_delete after insert or delete on pay_order for each row execute function pay_order_rollup()',
    `create trigger pay_order_rollup_update after update on pay_order for each row when (${anyChange}) execute function pay_order_rollup()`,
  ];
}

/** Drops what rollupTriggerSql created (a later migration recreating them over more rollups). */
export function dropRollupTriggerSql(dialect: DialectName): string[] {
  return dialect === 'sqlite'
    ? ['drop trigger pay_order_rollup_insert', 'drop trigger pay_order_rollup_delete', 'drop trigger pay_order_rollup_update']
    : ['drop trigger pay_order_rollup_insert_delete on pay_order', 'drop trigger pay_order_rollup_update on pay_order', 'drop function pay_order_rollup()'];
}
