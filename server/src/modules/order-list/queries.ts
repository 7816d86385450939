import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { fenToYuan, formatDateTime, orderSortFields, TransType, type Order, type OrderDetail, type OrderListQuery } from '@huiyun/contract';
import type { Database } from '../../db/schema.ts';
import { listPage, sortColumnsOf } from '../../db/list-query.ts';
import { assertDeptInScope, inDeptScope, type DeptScope } from '../../db/scope.ts';
import { shanghaiDayRange } from '@huiyun/contract';

// 交易订单 (issue 16 §5): the orders of the caller's companies, newest first. Every filter is an
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
  'o.remark', 'o.createTime', 'o.payTime',
] as const;

type OrderRow = Omit<Order, 'deptName' | 'goodsPrice' | 'payAmount' | 'createTime' | 'payTime'> & {
  deptName: string | null;
  goodsPrice: number | string;
  payAmount: number | string;
  createTime: number | string;
  payTime: number | string | null;
};

type Orders = SelectQueryBuilder<Database & { o: Database['pay_order'] }, 'o', {}>;

function withColumns(qb: Orders) {
  return qb.leftJoin('sys_dept as d', 'd.deptId', 'o.deptId').select(orderColumns).$castTo<OrderRow>();
}

export async function listOrders(db: Kysely<Database>, scope: DeptScope, query: OrderListQuery): Promise<{ rows: Order[]; total: number }> {
  let filtered = db.selectFrom('pay_order as o').where(inDeptScope('o.deptId', scope));
  if (query.deptId !== undefined) {
    assertDeptInScope(scope, query.deptId); // a company outside the scope is refused, not shown empty
    filtered = filtered.where('o.deptId', '=', query.deptId);
  }
  if (query.orderNo) filtered = filtered.where('o.orderNo', '=', query.orderNo);
  if (query.transId) filtered = filtered.where('o.transId', '=', query.transId);
  if (query.machineNo) filtered = filtered.where('o.machineNo', '=', query.machineNo);
  if (query.payType !== undefined) filtered = filtered.where('o.payType', '=', query.payType);
  if (query.orderStatus !== undefined) filtered = filtered.where('o.orderStatus', '=', query.orderStatus);
  const { from, before } = shanghaiDayRange(query.start, query.end);
  if (from !== undefined) filtered = filtered.where('o.createTime', '>=', from);
  if (before !== undefined) filtered = filtered.where('o.createTime', '<', before);
  const { rows, total } = await listPage(db, filtered, withColumns, query, {
    sortColumns, defaultSort: ['o.createTime', 'desc'], tieBreaker: 'o.orderId',
  });
  return { rows: rows.map(toOrder), total };
}

export function toOrder(row: OrderRow): Order {
  return {
    ...row,
    deptName: row.deptName ?? '',
    // PostgreSQL answers bigint as text; integer fen → yuan text, never through a float.
    goodsPrice: fenToYuan(Number(row.goodsPrice)),
    payAmount: fenToYuan(Number(row.payAmount)),
    createTime: formatDateTime(Number(row.createTime)),
    payTime: row.payTime == null ? '' : formatDateTime(Number(row.payTime)),
  };
}

/** Refunds listed with one order at most (the preview's table). */
const REFUNDS_SHOWN = 100;

/**
 * One order of the caller's scope and its refunds; undefined when there is none (or it lies outside
 * the scope: the same answer, so ids of other companies tell nothing).
 *
 * Which rows are an order's refunds: until pay_order has its link column (the order state machine's
 * migration adds it), a refund is a row of the same company with transType 退款, created at or after
 * the order, whose refund number starts with the order's number (the refund numbering is
 * `<orderNo>` + a suffix). The scan is bounded by the (deptId, createTime, orderId) index from the
 * order's time on and by REFUNDS_SHOWN. When the link column lands, this condition becomes `link = orderId`.
 */
export async function findOrderDetail(db: Kysely<Database>, scope: DeptScope, orderId: number): Promise<OrderDetail | undefined> {
  const row = await withColumns(db.selectFrom('pay_order as o').where('o.orderId', '=', orderId).where(inDeptScope('o.deptId', scope))).executeTakeFirst();
  if (!row) return undefined;
  const order = toOrder(row);
  if (row.transType === TransType.refund) return { order, refunds: [] };
  const refunds = await withColumns(
    db.selectFrom('pay_order as o')
      .where('o.deptId', '=', row.deptId)
      .where('o.createTime', '>=', Number(row.createTime))
      .where('o.transType', '=', TransType.refund)
      .where('o.orderId', '!=', row.orderId)
      .where(sql`substr(${sql.ref('o.orderNo')}, 1, ${row.orderNo.length})`, '=', row.orderNo),
  )
    .orderBy('o.createTime', 'desc')
    .orderBy('o.orderId', 'desc')
    .limit(REFUNDS_SHOWN)
    .execute();
  return { order, refunds: refunds.map(toOrder) };
}

/** The companies the caller may filter by: its data scope. */
export async function orderDeptChoices(db: Kysely<Database>, scope: DeptScope) {
  return db.selectFrom('sys_dept').select(['deptId', 'deptName']).where(inDeptScope('deptId', scope)).orderBy('deptId').execute();
}
