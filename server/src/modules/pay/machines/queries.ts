import type { InferResult, Kysely, SelectQueryBuilder } from 'kysely';
import {
  fenToYuan, formatDateTime, MACHINE_ONLINE_WINDOW_MS, machineSortFields,
  type Aisle, type Machine, type MachineListQuery, type MachineOption, type MachineStatus,
} from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage, sortColumnsOf } from '../../../db/list/paging.ts';
import { contains, type ListSearch } from '../../../db/list/search.ts';
import { inDeptScope, type DeptScope } from '../../../db/scope.ts';

const sortColumns = sortColumnsOf(machineSortFields, { table: 'pm', columns: { deptName: 'd.deptName' } });

function withColumns(qb: SelectQueryBuilder<Database & { pm: Database['pay_machine'] }, 'pm', {}>) {
  return qb
    .leftJoin('sys_dept as d', 'd.deptId', 'pm.deptId')
    .select([
      'pm.machineId', 'pm.machineNo', 'pm.machineName', 'pm.deptId', 'd.deptName', 'pm.address', 'pm.status', 'pm.lastSeenAt',
      'pm.addUser', 'pm.editUser', 'pm.addTime', 'pm.editTime',
    ]);
}

/** 机器列表: the machines of the companies in the caller's scope, newest first; never the terminal key. */
export async function listMachines(db: Kysely<Database>, scope: DeptScope, query: MachineListQuery, now: number) {
  let filtered = db.selectFrom('pay_machine as pm').where(inDeptScope('pm.deptId', scope));
  const searches: ListSearch[] = [];
  if (query.machineNo) searches.push(contains(db, 'pay_machine', 'pm.machineNo', query.machineNo));
  if (query.machineName) searches.push(contains(db, 'pay_machine', 'pm.machineName', query.machineName));
  if (query.status !== undefined) filtered = filtered.where('pm.status', '=', query.status);
  const { rows, ...paged } = await listPage(
    db,
    filtered,
    withColumns,
    query,
    { sortColumns, defaultSort: ['pm.machineId', 'desc'], tieBreaker: 'pm.machineId', searches },
  );
  return { rows: rows.map((row) => toMachine(row, now)), ...paged };
}

type MachineRow = InferResult<ReturnType<typeof withColumns>>[number];

function toMachine(row: MachineRow, now: number): Machine {
  const lastSeenAt = row.lastSeenAt == null ? null : Number(row.lastSeenAt);
  return {
    ...row,
    deptName: row.deptName ?? '',
    status: row.status as MachineStatus,
    lastSeenAt: formatDateTime(lastSeenAt),
    online: lastSeenAt !== null && now - lastSeenAt <= MACHINE_ONLINE_WINDOW_MS,
    addTime: formatDateTime(Number(row.addTime)),
    editTime: formatDateTime(Number(row.editTime)),
  };
}

const OPTIONS_LIMIT = 50;

/** The machines a select offers (货道信息's machine picker): matching the keyword, at most 50, plus `machineId` when named. */
export async function machineOptions(db: Kysely<Database>, scope: DeptScope, keyword: string, machineId?: number): Promise<MachineOption[]> {
  const base = db
    .selectFrom('pay_machine as pm')
    .leftJoin('sys_dept as d', 'd.deptId', 'pm.deptId')
    .select(['pm.machineId', 'pm.machineNo', 'pm.machineName', 'd.deptName', 'pm.status'])
    .where(inDeptScope('pm.deptId', scope));
  let matching = base;
  if (keyword) {
    matching = matching.where((eb) => eb.or([contains(db, 'pay_machine', 'pm.machineNo', keyword).condition, contains(db, 'pay_machine', 'pm.machineName', keyword).condition]));
  }
  const rows = await matching.orderBy('pm.machineNo').limit(OPTIONS_LIMIT).execute();
  if (machineId !== undefined && !rows.some((r) => r.machineId === machineId)) {
    const named = await base.where('pm.machineId', '=', machineId).executeTakeFirst();
    if (named) rows.unshift(named);
  }
  return rows.map((r) => ({ ...r, deptName: r.deptName ?? '', status: r.status as MachineStatus }));
}

/** One machine as a select shows it (the heading of 货道信息). */
export async function findMachineOption(db: Kysely<Database>, machineId: number): Promise<MachineOption | undefined> {
  const row = await db
    .selectFrom('pay_machine as pm')
    .leftJoin('sys_dept as d', 'd.deptId', 'pm.deptId')
    .select(['pm.machineId', 'pm.machineNo', 'pm.machineName', 'd.deptName', 'pm.status'])
    .where('pm.machineId', '=', machineId)
    .executeTakeFirst();
  return row && { ...row, deptName: row.deptName ?? '', status: row.status as MachineStatus };
}

/** A machine's aisles, layer by layer, column by column. */
export async function aislesOf(db: Kysely<Database>, machineId: number): Promise<Aisle[]> {
  const rows = await db
    .selectFrom('pay_aisle')
    .select(['aisleId', 'machineId', 'aisleNo', 'layer', 'aisleColumn', 'goodsNo', 'goodsName', 'price', 'capacity', 'stock', 'reportedStock', 'reportedAt', 'status', 'editUser', 'editTime'])
    .where('machineId', '=', machineId)
    .orderBy('layer')
    .orderBy('aisleColumn')
    .execute();
  return rows.map((r) => ({
    ...r, price: fenToYuan(Number(r.price)), status: r.status as MachineStatus, editTime: formatDateTime(Number(r.editTime)),
    reportedStock: r.reportedStock === null ? null : Number(r.reportedStock), reportedAt: r.reportedAt === null ? '' : formatDateTime(Number(r.reportedAt)),
  }));
}
