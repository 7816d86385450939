import type { Generated, Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';

// The tables of 对账 (migration 0027), typed here and added to the database's type with Kysely's
// $extendTables: the module keeps its tables to itself (db/schema.ts holds the tables others share).

export interface ReconcileRunTable {
  runId: Generated<number>;
  day: string;
  configId: number;
  deptId: number;
  gateway: string;
  result: string;
  platformCount: Generated<number>;
  platformAmount: Generated<number>;
  gatewayCount: Generated<number>;
  gatewayAmount: Generated<number>;
  diffCount: Generated<number>;
  message: Generated<string>;
  runBy: Generated<string>;
  leaseUntil: Generated<number>;
  startTime: number;
  finishTime: number | null;
}

export interface ReconcileDiffTable {
  diffId: Generated<number>;
  runId: number;
  category: string;
  kind: string;
  orderNo: string;
  refundNo: Generated<string>;
  gatewayTradeNo: Generated<string>;
  platformAmount: number | null;
  platformStatus: number | null;
  gatewayAmount: number | null;
  gatewayTime: number | null;
  handled: Generated<number>;
  handleNote: Generated<string>;
  handledBy: Generated<string>;
  handledTime: number | null;
}

export type ReconcileTables = { pay_reconcile_run: ReconcileRunTable; pay_reconcile_diff: ReconcileDiffTable };
export type ReconcileDatabase = Database & ReconcileTables;
export type ReconcileDb = Kysely<ReconcileDatabase>;
export type ReconcileQueryable = ReconcileDb | Transaction<ReconcileDatabase>;

export const reconcileDb = (db: Kysely<Database>): ReconcileDb => db.$extendTables<ReconcileTables>();
