// The orders of the order benchmarks: a year of a vending fleet, 10 companies and 1,000 machines
// (machine k belongs to company k mod 10), bulk-inserted outside the server (bench/orders.ts,
// bench/order-export.ts).
import { OrderStatus, PayType, TransType } from '@huiyun/contract';
import { bulkInsert } from './bulk-insert.ts';
import type { BenchServer } from './server.ts';

export const COMPANIES = 10;
export const MACHINES = 1_000;
export const ORDERS = 1_000_000;
export const YEAR_MS = 365 * 86_400_000;

const GOODS = ['矿泉水', '可乐', '雪碧', '橙汁', '绿茶', '红茶', '咖啡', '酸奶', '薯片', '饼干'];
export const machineNo = (k: number) => `M${String(k + 1).padStart(4, '0')}`;
export const orderNo = (i: number) => `HY${String(i).padStart(9, '0')}`;
export const transId = (i: number) => `42000${String(i).padStart(9, '0')}`;

/** Pay types as a vending fleet sees them: WeChat most, Alipay next, then cash and UnionPay QR. */
function payTypeOf(i: number): number {
  const r = (Math.floor(i / 100) * 37 + i * 3) % 100; // independent of the status (i % 100)
  return r < 55 ? PayType.wechat : r < 90 ? PayType.alipay : r < 95 ? PayType.cash : PayType.unionQr;
}

/**
 * Statuses of a year of sales: mostly dispensed; timed out, failed, paid, in flight; 5 % refund rows.
 * A machine has at most one open sale (1 / 10 / 2: the unique index pay_order_machine_active), so only
 * the newest order of each machine — the last MACHINES of the year, one per machine — may be open;
 * older ones that would be are closed (1 / 10 → 订单超时) or dispensed (2 → 出货成功).
 */
function statusOf(i: number, count: number): { status: number; refund: boolean } {
  const { status, refund } = yearStatusOf(i);
  if (i >= count - MACHINES) return { status, refund };
  if (status === OrderStatus.created || status === OrderStatus.processing) return { status: OrderStatus.timedOut, refund };
  if (status === OrderStatus.paid) return { status: OrderStatus.dispensed, refund };
  return { status, refund };
}

function yearStatusOf(i: number): { status: number; refund: boolean } {
  const r = i % 100;
  if (r < 85) return { status: OrderStatus.dispensed, refund: false };
  if (r < 91) return { status: OrderStatus.timedOut, refund: false };
  if (r < 92) return { status: OrderStatus.dispenseFailed, refund: false };
  if (r < 93) return { status: OrderStatus.paid, refund: false };
  if (r < 94) return { status: OrderStatus.processing, refund: false };
  if (r < 95) return { status: OrderStatus.created, refund: false };
  return { status: r < 99 ? OrderStatus.refunded : OrderStatus.refundFailed, refund: true };
}

/** Seeds `count` orders spread over the year before `now` (~31.5 s apart for a million); answers the companies' ids. */
/** Column types of `bulkInsert`. */
export const text = { pgType: 'text' } as const;
export const int = { pgType: 'int' } as const;
export const big = { pgType: 'bigint' } as const;

/** The COMPANIES vending companies (售货公司1…, deptNo VEND1…): their deptIds in order. */
export async function seedCompanies(server: BenchServer, now: number): Promise<number[]> {
  await bulkInsert(server, 'sys_dept', [
    { name: 'deptName', ...text }, { name: 'deptNo', ...text }, { name: 'parentId', ...int }, { name: 'addTime', ...big }, { name: 'editTime', ...big },
  ], COMPANIES, (i) => [`售货公司${i + 1}`, `VEND${i + 1}`, 0, now, now]);
  return (await server.ctx.db.selectFrom('sys_dept').select('deptId').where('deptNo', 'like', 'VEND%').orderBy('deptId').execute()).map((d) => d.deptId);
}

export async function seedOrders(server: BenchServer, now: number, count = ORDERS, log: (line: string) => void = console.log): Promise<number[]> {
  const { db } = server.ctx;
  const seedStart = performance.now();
  const spacing = Math.floor(YEAR_MS / count);
  const depts = await seedCompanies(server, now);
  const start = now - YEAR_MS;
  await bulkInsert(server, 'pay_order', [
    { name: 'deptId', ...int }, { name: 'orderNo', ...text }, { name: 'transId', ...text }, { name: 'payType', ...int }, { name: 'subPayType', ...int },
    { name: 'transType', ...int }, { name: 'machineNo', ...text }, { name: 'goodsNo', ...text }, { name: 'goodsName', ...text },
    { name: 'goodsPrice', ...int }, { name: 'payAmount', ...int }, { name: 'aisleNo', ...text }, { name: 'orderStatus', ...int },
    { name: 'openId', ...text }, { name: 'mchId', ...text }, { name: 'subMchId', ...text }, { name: 'remark', ...text },
    { name: 'createTime', ...big }, { name: 'payTime', ...big },
  ], count, (i) => {
    const k = (i * 7_919) % MACHINES; // machine k belongs to company k % 10
    const goods = i % GOODS.length;
    const price = 200 + goods * 50;
    const { status, refund } = statusOf(i, count);
    const created = start + i * spacing;
    const paid = status !== OrderStatus.created && status !== OrderStatus.processing && status !== OrderStatus.timedOut;
    return [
      depts[k % COMPANIES]!, orderNo(i), paid ? transId(i) : '', payTypeOf(i), 0, refund ? TransType.refund : TransType.consume, machineNo(k),
      `G${goods}`, GOODS[goods]!, price, refund ? -price : price, `A${1 + (i % 30)}`, status, `o${String(i % 50_000).padStart(8, '0')}`,
      '1900000001', '', '', created, paid ? created + 3_000 : (null as unknown as number), // unpaid: no pay time
    ];
  });
  log(`  orders seeded at ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  return depts;
}
