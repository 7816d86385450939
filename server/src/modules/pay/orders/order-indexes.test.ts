import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../../context.ts';
import { connectDatabase } from '../../../db/connect.ts';
import { migrateTo } from '../../../db/migrate.ts';
import type { Database } from '../../../db/schema.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../../../test/test-database.ts';
import { saleContextOf } from './create.ts';
import { claimExpired, claimStuckRefunds, failStaleDispenses, sweepRefunds } from './sweeper.ts';
import type { PaymentRuntime } from './runtime.ts';
import { listOrders } from '../order-list/index.ts';
import { orderListQuery } from '@huiyun/contract';

// pay_order's indexes are what every purchase pays for at each status move (migration 0021,
// docs/performance.md "Terminal flow"): each one is there for a read, and the sweeper's reads must find
// theirs — with the statement's own text and parameters, as the server sends it (a partial index is read
// only when the text itself proves its condition; on PostgreSQL also in the generic plan of a prepared
// statement). Plans on SQLite (EXPLAIN QUERY PLAN) and, with TEST_DATABASE_URL, PostgreSQL (EXPLAIN).

type Captured = { sql: string; parameters: readonly unknown[] };
const captured: Captured[] = [];
let capturing = false;
let db: Kysely<Database>;
let test: TestDatabase | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-order-indexes-'));
const postgres = testDbKind() === 'postgres';

beforeAll(async () => {
  const log = (event: { level: string; query: Captured }) => { if (capturing && event.level === 'query') captured.push(event.query); };
  if (postgres) {
    test = await createTestDatabase();
    await test.db.destroy();
    db = connectDatabase({ kind: 'postgres', url: test.url!, poolSize: 1 }, { log });
  } else {
    db = connectDatabase({ kind: 'sqlite', file: path.join(dataDir, 'plans.db') }, { log });
  }
  await migrateTo(db);
});
afterAll(async () => {
  await db?.destroy();
  await test?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const ctx = () => ({ db, now: () => Date.now(), config: { pay: { recoverMs: 60_000, dispenseTimeoutMs: 300_000 } } }) as unknown as AppContext;

/** The statements `work` sends that read pay_order by something other than its key. */
async function statementsOf(work: () => Promise<unknown>): Promise<Captured[]> {
  captured.length = 0;
  capturing = true;
  try {
    await work();
  } finally {
    capturing = false;
  }
  return captured.filter((s) => /pay_order/.test(s.sql));
}

const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`);

/** The plan's text: SQLite's EXPLAIN QUERY PLAN; PostgreSQL's generic plan of the statement prepared, seq scans off (the tables are near empty). */
async function planOf(statement: Captured): Promise<string> {
  if (!postgres) {
    const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]));
    return rows.map((r) => r.detail).join('\n');
  }
  return db.connection().execute(async (c) => {
    await c.executeQuery(CompiledQuery.raw('begin'));
    try {
      await c.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
      await c.executeQuery(CompiledQuery.raw('set local plan_cache_mode = force_generic_plan'));
      await c.executeQuery(CompiledQuery.raw(`prepare order_index_plan as ${statement.sql}`));
      const args = statement.parameters.length ? `(${statement.parameters.map(literal).join(', ')})` : '';
      const { rows } = await c.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain execute order_index_plan${args}`));
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await c.executeQuery(CompiledQuery.raw('rollback'));
      await c.executeQuery(CompiledQuery.raw('deallocate order_index_plan'));
    }
  });
}

describe('pay_order indexes', () => {
  it('are the ones the lists, the terminal and the sweeper read — none holding orderStatus beside the two status filters of 交易订单', async () => {
    const names = postgres
      ? (await db.executeQuery<{ name: string }>(CompiledQuery.raw(`select indexname as name from pg_indexes where tablename = 'pay_order' and indexname <> 'pay_order_pkey'`))).rows
      : (await db.executeQuery<{ name: string }>(CompiledQuery.raw(`select name from sqlite_master where type = 'index' and tbl_name = 'pay_order' and sql is not null`))).rows;
    // pay_order_config_paid: 对账 reads a config's payments of a Beijing day (migration 0027)
    expect(names.map((r) => r.name).sort()).toEqual([
      'pay_order_config_paid', 'pay_order_dept_time', 'pay_order_machine_active', 'pay_order_machine_time', 'pay_order_no', 'pay_order_pay_type_time', 'pay_order_refund_key',
      'pay_order_refund_needed', 'pay_order_status_pay_type_time', 'pay_order_status_time', 'pay_order_time', 'pay_order_trans_id',
    ]);
  });

  it("the sweeper's claim of unpaid orders past their deadline reads the status index (its two short ranges 1 and 10)", async () => {
    const [claim] = await statementsOf(() => claimExpired(ctx(), 'plan-test'));
    expect(claim!.sql).toContain('"orderStatus" in (1, 10)');
    expect(await planOf(claim!)).toMatch(/pay_order_status_(pay_type_)?time/);
  });

  it("the sweeper's claim of refunds stuck in 11/12 reads the status index (the refunds under way)", async () => {
    const [claim] = await statementsOf(() => claimStuckRefunds(ctx(), 'plan-test'));
    expect(claim!.sql).toContain('"orderStatus" in (11, 12)');
    expect(await planOf(claim!)).toMatch(/pay_order_status_(pay_type_)?time/);
  });

  it('the sweeper reads paid orders whose dispense was never reported off an index of the open sales, and marked orders off their partial index', async () => {
    const [stale] = await statementsOf(() => failStaleDispenses(ctx()));
    // the status index's range 2, or (PostgreSQL: its literals prove the condition) the one-open-sale index
    expect(await planOf(stale!)).toMatch(/pay_order_status_(pay_type_)?time|pay_order_machine_active/);
    const [marked] = await statementsOf(() => sweepRefunds({ ctx: ctx() } as PaymentRuntime));
    expect(marked!.sql).toMatch(/"refundNeeded" = 1/);
    expect(await planOf(marked!)).toContain('pay_order_refund_needed');
  });

  it("a create's one read (aisle, terminal config, open sale) finds the machine's open sale off the one-open-sale index", async () => {
    const [read] = await statementsOf(() => saleContextOf(db, { machineId: 1, machineNo: 'M-PLAN', aisleNo: 'A1', payType: 3 }));
    expect(await planOf(read!)).toContain('pay_order_machine_active');
  });

  it("交易订单's exact 交易号 reads its partial index (the orders that have one)", async () => {
    const [page] = await statementsOf(() => listOrders(db, 'all', orderListQuery.parse({ page: 1, limit: 10, transId: '4200000001' })));
    expect(page!.sql).toContain(`"o"."transId" <> ''`);
    expect(await planOf(page!)).toContain('pay_order_trans_id');
  });
});
