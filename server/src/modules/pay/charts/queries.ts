import { sql, type Kysely } from 'kysely';
import type { SalesChartsQuery } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { compiledPerShape } from '../../../db/compiled-once.ts';
import { assertDeptInScope, inDeptScope, type DeptScope } from '../../../db/scope.ts';
import { withChartTables, type RollupName } from './rollup-tables.ts';
import type { Piece } from './spans.ts';

// The reads of 数据可视化, all from the rollups (migrations 0025, 0031), never from pay_order: a chart costs rows
// of (company, terminal, pay type, day or month), whatever the number of orders behind them. A span of days is
// read as pieces (spans.ts): each piece's rows with their sign, summed together in one statement.

export type ChartFilters = Pick<SalesChartsQuery, 'deptId' | 'machineNo' | 'payType'>;
export type Summed = { createdCount: number; paidCount: number; paidAmount: number; refundAmount: number };
/** What a rollup family is keyed by: by terminal (sales), by goods, by company alone (dept). */
export type Family = 'sales' | 'goods' | 'dept';

const sums = [
  sql<string | number>`sum("createdCount")`.as('createdCount'),
  sql<string | number>`sum("paidCount")`.as('paidCount'),
  sql<string | number>`sum("paidAmount")`.as('paidAmount'),
  sql<string | number>`sum("refundAmount")`.as('refundAmount'),
];
const netAmount = sql`sum("paidAmount") - sum("refundAmount")`;
const measures = ['createdCount', 'paidCount', 'paidAmount', 'refundAmount'] as const;
const signed = (sign: 1 | -1) => measures.map((c) => (sign === 1 ? sql<number>`${sql.ref(c)}` : sql<number>`-${sql.ref(c)}`).as(c));

/** PostgreSQL answers sums as text (numeric, bigint): numbers here. */
export const summed = (row: { createdCount: string | number | null; paidCount: string | number | null; paidAmount: string | number | null; refundAmount: string | number | null }): Summed => ({
  createdCount: Number(row.createdCount ?? 0), paidCount: Number(row.paidCount ?? 0), paidAmount: Number(row.paidAmount ?? 0), refundAmount: Number(row.refundAmount ?? 0),
});

/** A company filter outside the caller's scope is refused (403), not shown empty. */
export function checkFilters(scope: DeptScope, filters: ChartFilters) {
  if (filters.deptId !== undefined) assertDeptInScope(scope, filters.deptId);
}

/** The family that answers sums under these filters: a terminal chosen, the terminals' rollups; else the companies'. */
export const familyOf = (filters: ChartFilters): Family => (filters.machineNo ? 'sales' : 'dept');
/** Whether the family has month rows under these filters (the goods' month rows have no terminal). */
export const hasMonths = (family: Family, filters: ChartFilters) => family !== 'goods' || !filters.machineNo;

const tableOf = (family: Family, period: Piece['period']) => `chart_${family}_${period}` as RollupName;
type KeyColumn = 'machineNo' | 'payType' | 'goodsName';
/** A span read: its rollup family, pieces, scope, filters and the key columns kept. */
type SpanRead = { family: Family; pieces: Piece[]; scope: DeptScope; filters: ChartFilters; columns: KeyColumn[] };

// Each statement is built and compiled once per shape (compiledPerShape): Kysely's building and compiling
// was as much of a chart request's CPU as the reads themselves. `v` holds stand-ins while building.
const run = compiledPerShape();
type Values = Record<string, unknown>;
const shapeOf = (read: SpanRead) => [
  read.family, read.pieces.map((p) => `${p.period}${p.sign}`).join(','), read.scope === 'all' ? 'all' : read.scope.length,
  read.filters.deptId !== undefined, Boolean(read.filters.machineNo), read.filters.payType !== undefined, read.columns.join(','),
].join(' ');
function valuesOf(read: SpanRead): Values {
  const values: Values = { deptId: read.filters.deptId, machineNo: read.filters.machineNo, payType: read.filters.payType };
  read.pieces.forEach((p, i) => Object.assign(values, { [`f${i}`]: p.from, [`t${i}`]: p.to }));
  if (read.scope !== 'all') read.scope.forEach((deptId, i) => (values[`s${i}`] = deptId));
  return values;
}

/**
 * The rows of one piece the filters select, signed: `columns` (key columns of the family) and `p` (its day
 * number or YYYYMM: isMonthKey tells them apart). Typed as chart_goods_day's columns.
 */
function pieceRows(db: Kysely<Database>, read: SpanRead, index: number, v: Values) {
  const piece = read.pieces[index]!;
  const period = sql.ref<number>(piece.period);
  const scope = read.scope === 'all' ? 'all' : read.scope.map((_, i) => v[`s${i}`] as number);
  let rows = withChartTables(db).selectFrom(tableOf(read.family, piece.period) as 'chart_goods_day').where(inDeptScope('deptId', scope))
    .where(period, '>=', v[`f${index}`] as number).where(period, '<=', v[`t${index}`] as number);
  if (read.filters.deptId !== undefined) rows = rows.where('deptId', '=', v.deptId as number);
  if (read.filters.machineNo) rows = rows.where('machineNo', '=', v.machineNo as string);
  if (read.filters.payType !== undefined) rows = rows.where('payType', '=', v.payType as number);
  return rows.select(read.columns).select([period.as('p'), ...signed(piece.sign)]);
}

/** The pieces' signed rows as one table `s`, to group and sum. */
function spanRows(db: Kysely<Database>, read: SpanRead, v: Values) {
  const [first, ...rest] = read.pieces.map((_, i) => pieceRows(db, read, i, v));
  return db.selectFrom(rest.reduce((union, next) => union.unionAll(next), first!).as('s'));
}

const spanRead = (family: Family, pieces: Piece[], scope: DeptScope, filters: ChartFilters, columns: KeyColumn[] = []): SpanRead => ({ family, pieces, scope, filters, columns });

/**
 * The sums of each period the pieces hold, `p` a day number or a month (YYYYMM). Grouped by `p` alone: a
 * span of one piece is then read in the order of the rollup's key, without a sort.
 */
export async function sumsByPeriod(db: Kysely<Database>, family: Family, pieces: Piece[], scope: DeptScope, filters: ChartFilters) {
  if (pieces.length === 0) return [];
  const read = spanRead(family, pieces, scope, filters);
  const rows = await run(db, `byPeriod ${shapeOf(read)}`, (v) => spanRows(db, read, v).select('s.p').select(sums).groupBy('s.p'), valuesOf(read));
  return rows.map((r) => ({ p: Number(r.p), ...summed(r) }));
}

/** The pieces' sums together. */
export async function sumsOver(db: Kysely<Database>, family: Family, pieces: Piece[], scope: DeptScope, filters: ChartFilters): Promise<Summed> {
  if (pieces.length === 0) return summed({ createdCount: 0, paidCount: 0, paidAmount: 0, refundAmount: 0 });
  const read = spanRead(family, pieces, scope, filters);
  const [row] = await run(db, `over ${shapeOf(read)}`, (v) => spanRows(db, read, v).select(sums), valuesOf(read));
  return summed(row!);
}

export async function sumsByPayType(db: Kysely<Database>, family: Family, pieces: Piece[], scope: DeptScope, filters: ChartFilters) {
  if (pieces.length === 0) return [];
  const read = spanRead(family, pieces, scope, filters, ['payType']);
  const rows = await run(db, `byPayType ${shapeOf(read)}`, (v) => spanRows(db, read, v).select('s.payType').select(sums).groupBy('s.payType').orderBy('s.payType'), valuesOf(read));
  return rows.map((r) => ({ payType: Number(r.payType), ...summed(r) })).filter((r) => r.paidCount !== 0 || r.paidAmount !== 0 || r.refundAmount !== 0 || r.createdCount !== 0);
}

/** The ten terminals (family sales) or goods (family goods) selling most, net of refunds, over the pieces. */
export async function topTen(db: Kysely<Database>, family: 'sales' | 'goods', pieces: Piece[], scope: DeptScope, filters: ChartFilters) {
  if (pieces.length === 0) return [];
  const key = family === 'sales' ? 'machineNo' : 'goodsName';
  const read = spanRead(family, pieces, scope, filters, [key]);
  const rows = await run(db, `top ${shapeOf(read)}`, (v) => spanRows(db, read, v).select(sql.ref<string>(`s.${key}`).as('key')).select(sums)
    .groupBy(`s.${key}`).having(sql<boolean>`sum("paidCount") > 0 or sum("refundAmount") > 0`).orderBy(netAmount, 'desc').orderBy(`s.${key}`).limit(10), valuesOf(read));
  return rows.map((r) => ({ key: r.key, ...summed(r) }));
}

/** The names of terminals, by number. */
export async function machineNames(db: Kysely<Database>, machineNos: string[]) {
  if (machineNos.length === 0) return new Map<string, string>();
  const names = await db.selectFrom('pay_machine').select(['machineNo', 'machineName']).where('machineNo', 'in', machineNos).execute();
  return new Map(names.map((n) => [n.machineNo, n.machineName]));
}
