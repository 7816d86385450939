// The terminal bench's baseline (bench/terminal.ts): a purchase's state changes through the bare driver —
// insert the order, → 10, → 2, then → 3 with the aisle's stock − 1 in one transaction — on the server's tables.
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { OrderStatus, PayType, TransType } from '@huiyun/contract';
import { newOrderNo } from '../../server/src/modules/pay/orders/index.ts';
import { BENCH_APPLICATION } from './pg-backends.ts';

export type Bare = { stockByAisle: () => Promise<Map<number, number>>; purchase: (m: { machineNo: string }, aisleId: number, n: number) => Promise<void>; all: <R>(text: string, params?: unknown[]) => Promise<R[]>; close: () => Promise<void>; loops: number };

/** What the bare driver needs of the bench's server: where its database is, and the company and config it sells on. */
export type BareTarget = { dbKind: 'sqlite' | 'postgres'; sqliteFile?: string; databaseUrl?: string; deptId: number; configId: number; aisles: string[]; price: number };

/** The baseline's side of a purchase: the same state changes on the same tables, bare through the driver. */
export async function openBare(server: BareTarget): Promise<Bare> {
  const { aisles: AISLES, price: PRICE } = server;
  const insertSql = `insert into pay_order ("deptId", "orderNo", "payType", "transType", "machineNo", "goodsNo", "goodsName", "goodsPrice", "payAmount", "aisleNo", "orderStatus", "mchId", "createTime", "payTime", "configId", "aisleId", "expireAt", "updateTime")
    values ($1, $2, $3, $4, $5, '', '矿泉水', $6, $6, $7, ${OrderStatus.created}, 'SIM-BENCH', $8, null, $9, $10, $11, $8) returning "orderId"`;
  const toProcessing = `update pay_order set "orderStatus" = ${OrderStatus.processing}, "updateTime" = $1 where "orderId" = $2 and "orderStatus" in (${OrderStatus.created})`;
  const toPaid = `update pay_order set "transId" = $1, "payTime" = $2, "orderStatus" = ${OrderStatus.paid}, "updateTime" = $2 where "orderId" = $3 and "orderStatus" in (${OrderStatus.created}, ${OrderStatus.processing})`;
  const toDispensed = `update pay_order set "dispenseTime" = $1, "dispenseMessage" = '', "orderStatus" = ${OrderStatus.dispensed}, "updateTime" = $1 where "orderId" = $2 and "orderStatus" in (${OrderStatus.paid})`;
  const takeStock = `update pay_aisle set stock = stock - 1, "editTime" = $1 where "aisleId" = $2 and stock > 0`;
  const aisleNoOf = (aisleId: number) => AISLES[(aisleId - 1) % AISLES.length]!;
  if (server.dbKind === 'sqlite') {
    const raw = new DatabaseSync(server.sqliteFile!, { timeout: 5000 });
    raw.exec('PRAGMA journal_mode = WAL');
    raw.exec('PRAGMA synchronous = NORMAL');
    const q = (text: string) => raw.prepare(text.replace(/\$\d+/g, (p) => `?${p.slice(1)}`));
    const [ins, proc, paid, disp, take] = [insertSql, toProcessing, toPaid, toDispensed, takeStock].map(q) as [ReturnType<typeof q>, ReturnType<typeof q>, ReturnType<typeof q>, ReturnType<typeof q>, ReturnType<typeof q>];
    return {
      loops: 1, // node:sqlite is synchronous: one loop, as the server's one connection
      stockByAisle: async () => new Map((raw.prepare('select "aisleId", stock from pay_aisle').all() as { aisleId: number; stock: number }[]).map((r) => [r.aisleId, r.stock])),
      all: async <R>(text: string, params: unknown[] = []) => raw.prepare(text).all(...(params as never[])) as R[],
      purchase: async (m, aisleId, n) => {
        const now = Date.now();
        const { orderId } = ins.get(server.deptId, newOrderNo(now), PayType.wechat, TransType.consume, m.machineNo, PRICE, aisleNoOf(aisleId), now, server.configId, aisleId, now + 300_000) as { orderId: number };
        proc.run(Date.now(), orderId);
        paid.run(`RAW${n}`, Date.now(), orderId);
        raw.exec('begin');
        try {
          disp.run(Date.now(), orderId);
          take.run(Date.now(), aisleId);
          raw.exec('commit');
        } catch (error) {
          raw.exec('rollback');
          throw error;
        }
      },
      close: async () => raw.close(),
    };
  }
  // (named as the bench's: its backends are not the server's, bench/lib/pg-backends.ts)
  const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 20, application_name: BENCH_APPLICATION });
  // named statements: what the server's pool does with DATABASE_PREPARED_STATEMENTS (the default)
  const run = (c: pg.PoolClient | pg.Pool, name: string, text: string, values: unknown[]) => c.query({ name, text, values });
  return {
    loops: 20, // the server's pool size (DATABASE_POOL_SIZE default)
    stockByAisle: async () => new Map((await pool.query<{ aisleId: number; stock: number }>('select "aisleId", stock from pay_aisle')).rows.map((r) => [r.aisleId, r.stock])),
    all: async <R>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as R[],
    purchase: async (m, aisleId, n) => {
      const c = await pool.connect();
      try {
        const now = Date.now();
        const { orderId } = (await run(c, 'b_ins', insertSql, [server.deptId, newOrderNo(now), PayType.wechat, TransType.consume, m.machineNo, PRICE, aisleNoOf(aisleId), now, server.configId, aisleId, now + 300_000])).rows[0] as { orderId: number };
        await run(c, 'b_proc', toProcessing, [Date.now(), orderId]);
        await run(c, 'b_paid', toPaid, [`RAW${n}`, Date.now(), orderId]);
        await c.query('begin');
        try {
          await run(c, 'b_disp', toDispensed, [Date.now(), orderId]);
          await run(c, 'b_take', takeStock, [Date.now(), aisleId]);
          await c.query('commit');
        } catch (error) {
          await c.query('rollback');
          throw error;
        }
      } finally {
        c.release();
      }
    },
    close: () => pool.end(),
  };
}

