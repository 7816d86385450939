import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { fenToYuan, formatDateTime, orderSortFields, TransType, type Order, type OrderDetail, type OrderListQuery } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { refundableOf } from '../orders/index.ts';
import { listPage, sortColumnsOf, type Listed, type SelectedRow } from '../../../db/list/paging.ts';
import { assertDeptInScope, inDeptScope, type DeptScope } from '../../../db/scope.ts';
import { withinShanghaiDays } from '../../../db/list/day-range.ts';

// 交易订单: the orders of the caller's companies, newest first. Every filter is an
// equality (or the time range) read from an index ending in (createTime, orderId) — migrations 0011
// and 0016 — so a page of the newest matching orders walks an index and stops after its rows; the
// total is bounded (listPage). docs/performance.md "Orders list" has the figures at a million rows.
//
// The terminal number is matched exactly, not as a part: (machineNo, createTime, orderId) then serves
// the page in order, where a prefix or a contains match would have to sort every matching row first.

const sortColumns = sortColumnsOf(orderSortFields, { table: 'o' });

const orderColumns = [
  'o.orderId', 'o.deptId', 'd.deptName', 'o.orderNo', 'o.transId', 'o.payType', 'o.subPayType', 'o.transType', 'o.machineNo',
  'o.goodsNo', 'o.goodsName', 'o.goodsPrice', 'o.payAmount', 'o.aisleNo', 'o.orderStatus', 'o.openId', 'o.mchId', 'o.subMchId',
  'o.remark', 'o.createTime', 'o.payTime', 'o.refundedAmount', 'o.reservedAmount', 'o.parentId', 'o.failReason',
] as const;

type Orders = SelectQueryBuilder<Database & { o: Database['pay_order'] }, 'o', {}>;

function withColumns(qb: Orders) {
  return qb.leftJoin('sys_dept as d', 'd.deptId', 'o.deptId').select(orderColumns);
}
type OrderRow = SelectedRow<typeof withColumns>;

/** The orders of the caller's scope that the screen's filters select (not yet ordered or paged). */
function filteredOrders(db: Kysely<Database>, scope: DeptScope, query: OrderListQuery) {
  let filtered = db.selectFrom('pay_order as o').where(inDeptScope('o.deptId', scope));
  if (query.deptId !== undefined) {
    assertDeptInScope(scope, query.deptId); // a company outside the scope is refused, not shown empty
    filtered = filtered.where('o.deptId', '=', query.deptId);
  }
  if (query.orderNo) filtered = filtered.where('o.orderNo', '=', query.orderNo);
  // `<> ''` as its index's own condition (partial: only paid orders have a transaction number; migration 0021)
  if (query.transId) filtered = filtered.where('o.transId', '=', query.transId).where('o.transId', '<>', sql.lit(''));
  if (query.machineNo) filtered = filtered.where('o.machineNo', '=', query.machineNo);
  if (query.payType !== undefined) filtered = filtered.where('o.payType', '=', query.payType);
  if (query.orderStatus !== undefined) filtered = filtered.where('o.orderStatus', '=', query.orderStatus);
  filtered = withinShanghaiDays(filtered, 'o.createTime', query.start, query.end);
  return filtered;
}

export async function listOrders(db: Kysely<Database>, scope: DeptScope, query: OrderListQuery): Promise<Listed<Order>> {
  const listed = await listPage(db, filteredOrders(db, scope, query), withColumns, query, {
    sortColumns, defaultSort: ['o.createTime', 'desc'], tieBreaker: 'o.orderId',
  });
  return { ...listed, rows: listed.rows.map(toOrder) };
}

/** Rows a page of the export reads: small enough to keep memory flat, large enough that queries are few. */
const EXPORT_PAGE = 2_000;

/**
 * 导出: every order of the filters, newest first (or oldest first when the list is sorted so), read a
 * page at a time by keyset on (createTime, orderId) — each page an index walk from where the last one
 * stopped, so a million orders cost a thousand short queries, never an offset scan or the whole result
 * in memory. Orders created while it runs may or may not be in it; none is listed twice.
 */
export function streamOrders(db: Kysely<Database>, scope: DeptScope, query: OrderListQuery): AsyncGenerator<Order> {
  const filtered = filteredOrders(db, scope, query); // refuses a company outside the scope before the download starts
  const ascending = query.sortField === 'createTime' && query.sortOrder === 'ascend';
  return walkOrders(filtered, ascending);
}

async function* walkOrders(filtered: Orders, ascending: boolean): AsyncGenerator<Order> {
  const [direction, beyond, upTo] = ascending ? (['asc', '>', '>='] as const) : (['desc', '<', '<='] as const);
  let last: { createTime: number; orderId: number } | undefined;
  for (;;) {
    const after = last;
    // createTime up to the last row's (an index range), then past the last row among equal times
    const page = await withColumns(after
      ? filtered.where('o.createTime', upTo, after.createTime)
        .where((eb) => eb.or([eb('o.createTime', beyond, after.createTime), eb('o.orderId', beyond, after.orderId)]))
      : filtered)
      .orderBy('o.createTime', direction)
      .orderBy('o.orderId', direction)
      .limit(EXPORT_PAGE)
      .execute();
    for (const row of page) yield toOrder(row);
    if (page.length < EXPORT_PAGE) return;
    const tail = page[page.length - 1]!;
    last = { createTime: Number(tail.createTime), orderId: tail.orderId };
  }
}

export function toOrder({ reservedAmount, ...row }: OrderRow): Order {
  const refundable = refundableOf({
    transType: row.transType, payTime: row.payTime === null ? null : Number(row.payTime), payAmount: Number(row.payAmount),
    refundedAmount: Number(row.refundedAmount), reservedAmount: Number(reservedAmount),
  });
  return {
    ...row,
    deptName: row.deptName ?? '',
    // PostgreSQL answers bigint as text; integer fen → yuan text, never through a float.
    goodsPrice: fenToYuan(Number(row.goodsPrice)),
    payAmount: fenToYuan(Number(row.payAmount)),
    createTime: formatDateTime(Number(row.createTime)),
    payTime: row.payTime == null ? '' : formatDateTime(Number(row.payTime)),
    refundedAmount: fenToYuan(Number(row.refundedAmount)),
    refundableAmount: fenToYuan(Math.max(0, refundable)),
  };
}

/** One row of the caller's scope as the screen shows it. */
export async function orderById(db: Kysely<Database>, scope: DeptScope, orderId: number): Promise<Order | undefined> {
  const row = await withColumns(db.selectFrom('pay_order as o').where('o.orderId', '=', orderId).where(inDeptScope('o.deptId', scope))).executeTakeFirst();
  return row && toOrder(row);
}

/** Refunds listed with one order at most (the preview's table). */
const REFUNDS_SHOWN = 100;

/**
 * One order of the caller's scope and its refunds (by parentId, the unique (parentId, requestKey)
 * index); undefined when there is none or it lies outside the scope: the same answer, so ids of other
 * companies tell nothing.
 */
export async function findOrderDetail(db: Kysely<Database>, scope: DeptScope, orderId: number): Promise<OrderDetail | undefined> {
  const order = await orderById(db, scope, orderId);
  if (!order) return undefined;
  if (order.transType === TransType.refund) return { order, refunds: [] };
  const refunds = await withColumns(db.selectFrom('pay_order as o').where('o.parentId', '=', order.orderId))
    .orderBy('o.createTime', 'desc')
    .orderBy('o.orderId', 'desc')
    .limit(REFUNDS_SHOWN)
    .execute();
  return { order, refunds: refunds.map(toOrder) };
}
