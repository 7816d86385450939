import type { Kysely } from 'kysely';
import {
  formatDateTime, terminalConfigSortFields, type PayOpen, type TerminalConfig, type TerminalConfigListQuery, type TerminalMachineChoice,
  type TerminalPayConfigChoice,
} from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage, sortColumnsOf, type SelectedRow } from '../../../db/list/paging.ts';
import { contains, type ListSearch } from '../../../db/list/search.ts';
import { assertDeptInScope, inDeptScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError } from '../../../http/errors.ts';
import { fill, messages } from '@huiyun/contract';

const m = messages.terminalConfig;
const sortColumns = sortColumnsOf(terminalConfigSortFields, { table: 't' });

function bindingsInScope(db: Kysely<Database>, caller: Access) {
  return db
    .selectFrom('pay_terminal_config as t')
    .leftJoin('pay_machine as mc', 'mc.machineNo', 't.machineNo')
    .leftJoin('pay_config as c', 'c.id', 't.configId')
    .leftJoin('sys_dept as d', 'd.deptId', 't.deptId')
    .where(inDeptScope('t.deptId', caller.deptScope));
}

function withColumns(qb: ReturnType<typeof bindingsInScope>) {
  return qb.selectAll('t').select(['mc.machineName', 'c.name as payConfigName', 'd.deptName']);
}
type Row = SelectedRow<typeof withColumns>;

/** The bindings of the caller's companies (super administrator: all); machineNo searched as a part. */
export async function listTerminalConfigs(db: Kysely<Database>, caller: Access, query: TerminalConfigListQuery) {
  const filtered = bindingsInScope(db, caller);
  const searches: ListSearch[] = [];
  if (query.machineNo) searches.push(contains(db, 'pay_machine', 'mc.machineNo', query.machineNo));
  const { rows, ...paged } = await listPage(
    db,
    filtered,
    withColumns,
    query,
    { sortColumns, defaultSort: ['t.editTime', 'desc'], tieBreaker: 't.tcId', searches },
  );
  return { rows: rows.map(toTerminalConfig), ...paged };
}

function toTerminalConfig(row: Row): TerminalConfig {
  return {
    tcId: row.tcId,
    deptId: row.deptId,
    deptName: row.deptName ?? '',
    machineNo: row.machineNo,
    machineName: row.machineName ?? '',
    payType: row.payType,
    configId: row.configId,
    configName: row.configName,
    payConfigName: row.payConfigName ?? '',
    payOpen: row.payOpen as PayOpen,
    posNo: row.posNo,
    editUser: row.editUser,
    editTime: formatDateTime(Number(row.editTime)),
  };
}

const CHOICES = 50;

/** Machines of the caller's companies whose number or name holds the keyword (the first 50). */
export async function machineChoices(db: Kysely<Database>, caller: Access, keyword: string): Promise<TerminalMachineChoice[]> {
  let query = db
    .selectFrom('pay_machine as mc')
    .leftJoin('sys_dept as d', 'd.deptId', 'mc.deptId')
    .select(['mc.machineNo', 'mc.machineName', 'mc.deptId', 'd.deptName'])
    .where(inDeptScope('mc.deptId', caller.deptScope));
  if (keyword) {
    query = query.where((eb) => eb.or([contains(db, 'pay_machine', 'mc.machineNo', keyword).condition, contains(db, 'pay_machine', 'mc.machineName', keyword).condition]));
  }
  const rows = await query.orderBy('mc.machineNo', 'asc').limit(CHOICES).execute();
  return rows.map((r) => ({ machineNo: r.machineNo, machineName: r.machineName, deptId: r.deptId, deptName: r.deptName ?? '' }));
}

/** A machine the caller may bind: it exists and belongs to one of the caller's companies. */
export async function machineOfCaller(db: Kysely<Database>, caller: Access, machineNo: string) {
  const machine = await db.selectFrom('pay_machine').select(['machineNo', 'deptId']).where('machineNo', '=', machineNo).executeTakeFirst();
  if (!machine) throw new AppError(fill(m.machineNotFound, { machineNo }));
  assertDeptInScope(caller.deptScope, machine.deptId);
  return machine;
}

/** The configs a machine may be bound to for a pay type: its company's, of that pay type. */
export async function configChoices(db: Kysely<Database>, caller: Access, machineNo: string, payType: number): Promise<TerminalPayConfigChoice[]> {
  const machine = await machineOfCaller(db, caller, machineNo);
  return db
    .selectFrom('pay_config')
    .select(['id', 'name', 'payType', 'gateway'])
    .where('deptId', '=', machine.deptId)
    .where('payType', '=', payType)
    .orderBy('name', 'asc')
    .orderBy('id', 'asc')
    .limit(200)
    .execute();
}
