import { sql, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import {
  describeUserAgent, formatDateTime, loginLogSortFields, operLogSortFields,
  type LoginLog, type LoginLogListQuery, type LogResult, type OperLog, type OperLogListQuery,
} from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage, sortColumnsOf, type SelectedRow } from '../../../db/list/paging.ts';
import { contains, type ListSearch } from '../../../db/list/search.ts';
import { inDeptScope, type DeptScope } from '../../../db/scope.ts';
import { withinShanghaiDays } from '../../../db/list/day-range.ts';

const operSortColumns = sortColumnsOf(operLogSortFields);

/** 操作日志 in the caller's scope: entries written by accounts of the companies it may see. */
export async function listOperLogs(db: Kysely<Database>, scope: DeptScope, query: OperLogListQuery) {
  let filtered = db.selectFrom('sys_oper_log').where(inDeptScope('deptId', scope));
  const searches: ListSearch[] = [];
  if (query.userName) searches.push(contains(db, 'sys_oper_log', 'userName', query.userName));
  // One of a known set of screens (operLogModules), picked from a list: equality, on the index (module, operTime, operId).
  if (query.module) filtered = filtered.where('module', '=', query.module);
  if (query.success !== undefined) filtered = filtered.where('success', '=', query.success);
  filtered = withinShanghaiDays(filtered, 'operTime', query.beginTime, query.endTime);
  const { rows, ...paged } = await listPage(
    db,
    filtered,
    operLogColumns,
    query,
    { sortColumns: operSortColumns, defaultSort: ['operTime', 'desc'], tieBreaker: 'operId', searches },
  );
  return { rows: rows.map(toOperLog), ...paged };
}

function operLogColumns(qb: SelectQueryBuilder<Database, 'sys_oper_log', {}>) {
  return qb.select(['operId', 'userName', 'module', 'action', 'target', 'method', 'url', 'ip', 'success', 'message', 'costMs', 'operTime']);
}

type OperLogRow = SelectedRow<typeof operLogColumns>;

function toOperLog(row: OperLogRow): OperLog {
  return { ...row, success: row.success as LogResult, costMs: Number(row.costMs), operTime: formatDateTime(Number(row.operTime)) };
}

const loginSortColumns = sortColumnsOf(loginLogSortFields, { table: 'l' });

/**
 * A login attempt belongs to the company of its account. Failed attempts are written without one
 * (the password was not checked against an account), so the account is looked up by name; attempts
 * on names no account has belong to nobody and only the super administrator sees them.
 */
function loginInScope(scope: DeptScope): Expression<SqlBool> {
  if (scope === 'all') return sql<SqlBool>`1 = 1`;
  if (scope.length === 0) return sql<SqlBool>`1 = 0`;
  // The account is looked up (unique userName) only for such a caller: the super administrator's list reads one table.
  const accountDept = sql`(select ${sql.ref('u.deptId')} from ${sql.table('sys_user')} as ${sql.id('u')} where ${sql.ref('u.userName')} = ${sql.ref('l.userName')})`;
  return sql<SqlBool>`coalesce(${sql.ref('l.deptId')}, ${accountDept}) in (${sql.join(scope)})`;
}

/** 登录日志 in the caller's scope. */
export async function listLoginLogs(db: Kysely<Database>, scope: DeptScope, query: LoginLogListQuery) {
  let filtered = db.selectFrom('sys_login_log as l').where(loginInScope(scope));
  const searches: ListSearch[] = [];
  if (query.userName) searches.push(contains(db, 'sys_login_log', 'l.userName', query.userName));
  if (query.ip) searches.push(contains(db, 'sys_login_log', 'l.ip', query.ip));
  if (query.success !== undefined) filtered = filtered.where('l.success', '=', query.success);
  filtered = withinShanghaiDays(filtered, 'l.loginTime', query.beginTime, query.endTime);
  const { rows, ...paged } = await listPage(
    db,
    filtered,
    loginLogColumns,
    query,
    { sortColumns: loginSortColumns, defaultSort: ['l.loginTime', 'desc'], tieBreaker: 'l.infoId', searches },
  );
  return { rows: rows.map(toLoginLog), ...paged };
}

function loginLogColumns(qb: SelectQueryBuilder<Database & { l: Database['sys_login_log'] }, 'l', {}>) {
  return qb.select(['l.infoId', 'l.userName', 'l.ip', 'l.userAgent', 'l.success', 'l.message', 'l.loginTime']);
}

type LoginLogRow = SelectedRow<typeof loginLogColumns>;

function toLoginLog(row: LoginLogRow): LoginLog {
  return {
    ...row,
    success: row.success as LogResult,
    client: describeUserAgent(row.userAgent),
    loginTime: formatDateTime(Number(row.loginTime)),
  };
}
