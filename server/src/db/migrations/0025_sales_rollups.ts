import { sql, type Kysely } from 'kysely';
import { dialectOf, type DialectName } from '../dialect.ts';

// Issue 34 §1, 数据可视化: what the charts read, kept by triggers on pay_order in the transaction of the order
// change they count (the order module knows nothing of them), per (company, terminal, pay type, Asia/Shanghai
// day): orders created (the "clicks": a QR code shown), paid (count and amount, on the day of payment) and
// refunded (on the day the refund succeeded). chart_goods_day adds the goods to that key for the goods
// top-10 only; chart_dept_day leaves the terminal out, for the views of no one terminal. Orders made before this migration are
// counted by its backfill, in the same transaction as the triggers' creation.
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of rollupTables) await createRollupTable(db, table);
  for (const statement of rollupTriggerSql(dialectOf(db))) await sql.raw(statement).execute(db);
  await backfillSalesRollups(db);
}

/** Counts every order into the (empty) rollups: this migration's backfill; bench/charts.ts after a bulk seed that bypassed the triggers. */
export async function backfillSalesRollups(db: Kysely<any>): Promise<void> {
  for (const table of rollupTables) await backfill(db, table);
}

const keyColumnTypes: Record<string, 'integer' | 'varchar(64)' | 'varchar(128)'> = { deptId: 'integer', machineNo: 'varchar(64)', payType: 'integer', goodsName: 'varchar(128)' };

async function createRollupTable(db: Kysely<any>, table: RollupTable) {
  let create = db.schema.createTable(table.name);
  for (const column of table.key) create = create.addColumn(column, keyColumnTypes[column]!, (c) => c.notNull());
  await create
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('createdCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paidCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paidAmount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refundAmount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint(`${table.name}_pk`, ['day', ...table.key] as never)
    .execute();
  // a company's or a terminal's days (the filters); every company's days read the primary key
  await db.schema.createIndex(`${table.name}_dept`).on(table.name).columns(['deptId', 'day']).execute();
  if (table.key.includes('machineNo')) await db.schema.createIndex(`${table.name}_machine`).on(table.name).columns(['machineNo', 'day']).execute();
}

/** The orders already there, counted as the triggers would have counted them. */
async function backfill(db: Kysely<any>, table: RollupTable) {
  const key = table.key.map((c) => `"${c}"`).join(', ');
  const day = (column: string) => `((${column} + 28800000) / 86400000)`;
  await sql.raw(`
    insert into ${table.name} (${key}, "day", "createdCount", "paidCount", "paidAmount", "refundAmount")
    select ${key}, "day", sum(c), sum(pc), sum(pa), sum(ra) from (
      select ${key}, ${day('"createTime"')} as "day", 1 as c, 0 as pc, 0 as pa, 0 as ra from pay_order where "transType" = 1
      union all
      select ${key}, ${day('"payTime"')}, 0, 1, "payAmount", 0 from pay_order where "transType" = 1 and "payTime" is not null
      union all
      select ${key}, ${day('coalesce("payTime", "createTime")')}, 0, 0, 0, -"payAmount" from pay_order where "transType" = 2 and "orderStatus" = 13
    ) counted group by ${key}, "day"
  `).execute(db);
}

type RollupTable = { name: string; key: string[] };
const salesKey = ['deptId', 'machineNo', 'payType'];
const rollupTables: RollupTable[] = [
  { name: 'chart_sales_day', key: salesKey },
  { name: 'chart_goods_day', key: [...salesKey, 'goodsName'] },
  // without the terminal: what the series, the cards and the shares read when no terminal is chosen (a terminal
  // sells a few times a day, so chart_sales_day has nearly a row an order; this has ~15,000 a year)
  { name: 'chart_dept_day', key: ['deptId', 'payType'] },
];

/** An Asia/Shanghai day number (days since 1970-01-01 there): a fixed +8 h in integer arithmetic, whatever the server's zone. */
const shanghaiDayOf = (column: string) => `((${column} + 28800000) / 86400000)`;

/**
 * One count a pay_order row adds to the rollups: `counts` (SQL, for row r = old or new) whether it does,
 * `day` on which day, `values` what it adds (createdCount, paidCount, paidAmount, refundAmount).
 */
type Measure = { counts: (r: string) => string; day: (r: string) => string; values: (r: string) => [string, string, string, string]; amount: (r: string) => string };
const measures: Measure[] = [
  { // created: a sale's order (a QR code shown), on the day it was made
    counts: (r) => `${r}."transType" = 1`, day: (r) => shanghaiDayOf(`${r}."createTime"`),
    values: () => ['1', '0', '0', '0'], amount: () => '0',
  },
  { // paid: a sale's payment, on the day of payment; a late payment (to a closed order) too: its money came, and
    // its automatic refund is counted as a refund
    counts: (r) => `(${r}."transType" = 1 and ${r}."payTime" is not null)`, day: (r) => shanghaiDayOf(`${r}."payTime"`),
    values: (r) => ['0', '1', `${r}."payAmount"`, '0'], amount: (r) => `${r}."payAmount"`,
  },
  { // refunded: a refund row (negative payAmount) once 13 退款成功, on the day it succeeded (its payTime)
    counts: (r) => `(${r}."transType" = 2 and ${r}."orderStatus" = 13)`, day: (r) => shanghaiDayOf(`coalesce(${r}."payTime", ${r}."createTime")`),
    values: (r) => ['0', '0', '0', `-${r}."payAmount"`], amount: (r) => `${r}."payAmount"`,
  },
];

/** The SQL of adding (sign 1) or taking back (-1) what row r counts in one measure, when `when` holds. */
function applySql(dialect: DialectName, table: RollupTable, measure: Measure, r: string, sign: 1 | -1, when: string): string {
  const columns = [...table.key.map((c) => `"${c}"`), '"day"', '"createdCount"', '"paidCount"', '"paidAmount"', '"refundAmount"'];
  const values = [...table.key.map((c) => `${r}."${c}"`), measure.day(r), ...measure.values(r).map((v) => (sign === 1 ? v : `-(${v})`))];
  const add = ['createdCount', 'paidCount', 'paidAmount', 'refundAmount'].map((c) => `"${c}" = ${table.name}."${c}" + excluded."${c}"`).join(', ');
  const conflict = `on conflict ("day", ${table.key.map((c) => `"${c}"`).join(', ')}) do update set ${add}`;
  return dialect === 'postgres'
    ? `if ${when} then insert into ${table.name} (${columns.join(', ')}) values (${values.join(', ')}) ${conflict}; end if;`
    : `insert into ${table.name} (${columns.join(', ')}) select ${values.join(', ')} where ${when} ${conflict};`;
}

/** Whether an update changed what the row counts in a measure (whether, where, on which day, how much). */
function changedSql(dialect: DialectName, table: RollupTable, measure: Measure): string {
  const differ = (a: string, b: string) => (dialect === 'postgres' ? `${a} is distinct from ${b}` : `${a} is not ${b}`);
  const moved = [...table.key.map((c) => `"${c}"`), null].map((c) => (c === null ? differ(measure.day('old'), measure.day('new')) : differ(`old.${c}`, `new.${c}`)));
  return `((${measure.counts('old')}) <> (${measure.counts('new')}) or (${measure.counts('new')} and (${[...moved, differ(measure.amount('old'), measure.amount('new'))].join(' or ')})))`;
}

const insertSql = (d: DialectName) => rollupTables.flatMap((t) => measures.map((m) => applySql(d, t, m, 'new', 1, m.counts('new'))));
const deleteSql = (d: DialectName) => rollupTables.flatMap((t) => measures.map((m) => applySql(d, t, m, 'old', -1, m.counts('old'))));
const updateSql = (d: DialectName) => rollupTables.flatMap((t) => measures.flatMap((m) => {
  const changed = changedSql(d, t, m);
  return [applySql(d, t, m, 'old', -1, `${m.counts('old')} and ${changed}`), applySql(d, t, m, 'new', 1, `${m.counts('new')} and ${changed}`)];
}));
/** An update worth a look: one that changed any measure of any rollup (most do not: a dispense, a claim). */
const anyChangeSql = (d: DialectName) => rollupTables.flatMap((t) => measures.map((m) => changedSql(d, t, m))).join(' or ');

function rollupTriggerSql(dialect: DialectName): string[] {
  if (dialect === 'sqlite') {
    return [
      `create trigger pay_order_rollup_insert after insert on pay_order begin ${insertSql('sqlite').join(' ')} end`,
      `create trigger pay_order_rollup_delete after delete on pay_order begin ${deleteSql('sqlite').join(' ')} end`,
      `create trigger pay_order_rollup_update after update on pay_order when ${anyChangeSql('sqlite')} begin ${updateSql('sqlite').join(' ')} end`,
    ];
  }
  return [
    `create function pay_order_rollup() returns trigger language plpgsql as $$ begin
      if tg_op = 'INSERT' then ${insertSql('postgres').join(' ')}
      elsif tg_op = 'DELETE' then ${deleteSql('postgres').join(' ')}
      else ${updateSql('postgres').join(' ')}
      end if;
      return null;
    end $$`,
    'create trigger pay_order_rollup_insert_delete after insert or delete on pay_order for each row execute function pay_order_rollup()',
    `create trigger pay_order_rollup_update after update on pay_order for each row when (${anyChangeSql('postgres')}) execute function pay_order_rollup()`,
  ];
}
