import type { Kysely, SelectQueryBuilder } from 'kysely';
import { deptSortFields, formatDateTime, type Dept, type DeptChoice, type DeptListQuery } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage, sortColumnsOf, type SelectedRow } from '../../../db/list/paging.ts';
import { contains, type ListSearch } from '../../../db/list/search.ts';
import { inDeptScope, type DeptScope } from '../../../db/scope.ts';

const sortColumns = sortColumnsOf(deptSortFields);

/** The companies of the caller's data scope matching the filters, one page. */
export async function listDepts(db: Kysely<Database>, scope: DeptScope, query: DeptListQuery) {
  const filtered = db.selectFrom('sys_dept').where(inDeptScope('deptId', scope));
  const searches: ListSearch[] = [];
  if (query.deptName) searches.push(contains(db, 'sys_dept', 'deptName', query.deptName));
  if (query.deptNo) searches.push(contains(db, 'sys_dept', 'deptNo', query.deptNo));
  const { rows, ...paged } = await listPage(db, filtered, allColumns, query, {
    sortColumns, defaultSort: ['editTime', 'desc'], tieBreaker: 'deptId', searches,
  });
  return { rows: rows.map(toDept), ...paged };
}

const allColumns = (qb: SelectQueryBuilder<Database, 'sys_dept', {}>) => qb.selectAll();

function toDept(row: SelectedRow<typeof allColumns>): Dept {
  return { ...row, addTime: formatDateTime(row.addTime), editTime: formatDateTime(row.editTime) };
}

/** The companies the caller may pick (a list's company filter, a dialog's company choice): its data scope. */
export async function deptChoices(db: Kysely<Database>, scope: DeptScope): Promise<DeptChoice[]> {
  return db.selectFrom('sys_dept').select(['deptId', 'deptName']).where(inDeptScope('deptId', scope)).orderBy('deptId').execute();
}

/** Companies among ids that still hold at least one user, by name. */
export async function deptsWithUsers(db: Kysely<Database>, ids: number[]): Promise<string[]> {
  const rows = await db
    .selectFrom('sys_dept as d')
    .select('d.deptName')
    .where('d.deptId', 'in', ids)
    .where((eb) => eb.exists(eb.selectFrom('sys_user as u').select('u.userId').whereRef('u.deptId', '=', 'd.deptId')))
    .orderBy('d.deptId')
    .execute();
  return rows.map((r) => r.deptName);
}
