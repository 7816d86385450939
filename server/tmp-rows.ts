import { DatabaseSync } from 'node:sqlite';
import { toOrder } from './src/modules/order-list/queries.ts';
const keys = ['orderId','deptId','deptName','orderNo','transId','payType','transType','machineNo','goodsNo','goodsName','goodsPrice','payAmount','aisleNo','orderStatus','mchId','createTime','payTime','configId','refundedAmount','reservedAmount','parentId','refundReason','dispenseMessage','closeTime','requestKey','listSortValue','listSortKey'];
const db = new DatabaseSync(':memory:');
db.exec(`create table t (${keys.map((k) => `"${k}"`).join(',')})`);
const vals = keys.map((k, i) => (['deptName','orderNo','transId','machineNo','goodsNo','goodsName','aisleNo','mchId','refundReason','dispenseMessage','requestKey'].includes(k) ? `'v${i}'` : String(1700000000000 + i)));
for (let r = 0; r < 10; r++) db.exec(`insert into t values (${vals.join(',')})`);
const st = db.prepare('select * from t');
const st2 = db.prepare('select * from t'); (st2 as any).setReturnArrays(true);
const cols = st2.columns().map((c) => c.name);
const make = new Function('a', `return {${cols.map((c, i) => `${JSON.stringify(c)}: a[${i}]`).join(', ')}};`) as (a: unknown[]) => Record<string, unknown>;
function withoutPosition(read: Record<string, unknown>) { const row: Record<string, unknown> = {}; for (const key in read) if (key !== 'listSortValue' && key !== 'listSortKey') row[key] = read[key]; return row; }
const N = 20000;
const time = (label: string, f: () => unknown) => { for (let i = 0; i < 2000; i++) f(); const t0 = performance.now(); for (let i = 0; i < N; i++) f(); console.log(`${label.padEnd(40)} ${((performance.now() - t0) / N * 1000).toFixed(1)} µs`); };
for (let w = 0; w < 2; w++) {
  time('objects', () => st.all());
  time('arrays', () => st2.all());
  time('arrays + literal objects', () => (st2.all() as unknown as unknown[][]).map(make));
  time('objects + withoutPosition', () => (st.all() as Record<string, unknown>[]).map(withoutPosition));
  time('literal + withoutPosition', () => (st2.all() as unknown as unknown[][]).map(make).map(withoutPosition));
  time('objects + wP + toOrder', () => (st.all() as Record<string, unknown>[]).map(withoutPosition).map((r) => toOrder(r as never)));
  time('literal + wP + toOrder', () => (st2.all() as unknown as unknown[][]).map(make).map(withoutPosition).map((r) => toOrder(r as never)));
  time('literal + toOrder', () => (st2.all() as unknown as unknown[][]).map(make).map((r) => toOrder(r as never)));
  time('objects + wP + JSON', () => JSON.stringify((st.all() as Record<string, unknown>[]).map(withoutPosition)));
  time('literal + wP + JSON', () => JSON.stringify((st2.all() as unknown as unknown[][]).map(make).map(withoutPosition)));
}
const copyCols = keys.filter((k) => k !== 'listSortValue' && k !== 'listSortKey');
const copy = new Function('r', `return {${copyCols.map((c) => `${JSON.stringify(c)}: r[${JSON.stringify(c)}]`).join(', ')}};`) as (r: Record<string, unknown>) => Record<string, unknown>;
for (let w = 0; w < 2; w++) {
  time('objects + gen copy', () => (st.all() as Record<string, unknown>[]).map(copy));
  time('objects + gen copy + toOrder', () => (st.all() as Record<string, unknown>[]).map(copy).map((r) => toOrder(r as never)));
  time('literal + gen copy + toOrder', () => (st2.all() as unknown as unknown[][]).map(make).map(copy).map((r) => toOrder(r as never)));
  time('objects + gen copy + toOrder + JSON', () => JSON.stringify((st.all() as Record<string, unknown>[]).map(copy).map((r) => toOrder(r as never))));
  time('objects + wP + toOrder + JSON', () => JSON.stringify((st.all() as Record<string, unknown>[]).map(withoutPosition).map((r) => toOrder(r as never))));
}
