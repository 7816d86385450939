import type { Kysely } from 'kysely';
import { createSearchIndex } from '../search-index.ts';

// Lists at scale: every list's filters and its default sort ("newest first": the time or
// id, descending) read an index, so a page costs the rows it shows, not the table.
//
// - Contains filters: a trigram index per searched column (PostgreSQL pg_trgm GIN, SQLite an FTS5
//   trigram table kept in step by triggers; db/search-index.ts). The column lists are written out
//   here, not read from search-index.ts, so this migration stays what it was when later ones add columns.
// - Sorts and equality filters: composite indexes ending in (time, id) so ORDER BY time DESC, id DESC
//   LIMIT n walks the index backwards and stops after n rows, with or without the filter in front.
//   On SQLite a secondary index already ends in the rowid (the id), on PostgreSQL it is spelled out.
export async function up(db: Kysely<any>): Promise<void> {
  await createSearchIndex(db, 'sys_user', 'userId', ['userName', 'userMobile']);
  await createSearchIndex(db, 'sys_dept', 'deptId', ['deptName', 'deptNo']);
  await createSearchIndex(db, 'sys_role', 'roleId', ['roleName', 'roleNo']);
  await createSearchIndex(db, 'sys_permission', 'permissionId', ['permissionName', 'permission']);
  await createSearchIndex(db, 'sys_variable', 'varId', ['varLable', 'varName']);
  await createSearchIndex(db, 'sys_oper_log', 'operId', ['userName', 'module']);
  await createSearchIndex(db, 'sys_login_log', 'infoId', ['userName', 'ip']);
  await createSearchIndex(db, 'sync_task', 'taskId', ['taskName']);
  await createSearchIndex(db, 'sync_auth_code', 'id', ['authCode', 'machineName']);

  const index = (name: string, table: string, columns: string[]) => db.schema.createIndex(name).on(table).columns(columns).execute();
  // 操作日志 / 登录日志: newest first; by result; by company (the scope of a company administrator).
  await db.schema.dropIndex('sys_oper_log_time').execute();
  await index('sys_oper_log_time', 'sys_oper_log', ['operTime', 'operId']);
  await index('sys_oper_log_success_time', 'sys_oper_log', ['success', 'operTime', 'operId']);
  await index('sys_oper_log_dept_time', 'sys_oper_log', ['deptId', 'operTime', 'operId']);
  await db.schema.dropIndex('sys_login_log_time').execute();
  await index('sys_login_log_time', 'sys_login_log', ['loginTime', 'infoId']);
  await index('sys_login_log_success_time', 'sys_login_log', ['success', 'loginTime', 'infoId']);
  // 用户管理: newest first; by lock state; by company.
  await index('sys_user_time', 'sys_user', ['addTime', 'userId']);
  await index('sys_user_lock_time', 'sys_user', ['isLock', 'addTime', 'userId']);
  await index('sys_user_dept_time', 'sys_user', ['deptId', 'addTime', 'userId']);
  // 任务列表 (newest first is taskId desc, the primary key; by time should a list sort so), by owner, by company.
  await index('sync_task_time', 'sync_task', ['addTime', 'taskId']);
  await index('sync_task_user_id', 'sync_task', ['userId', 'taskId']);
  await index('sync_task_dept_id', 'sync_task', ['deptId', 'taskId']);
  // 授权码列表 / 设备列表 of one owner, newest first.
  await index('sync_auth_code_owner_id', 'sync_auth_code', ['authUserId', 'id']);
  // 退订/黑名单, newest first, of every company or of one.
  await index('sync_blacklist_time', 'sync_blacklist', ['addTime', 'phone']);
  await index('sync_blacklist_dept_time', 'sync_blacklist', ['deptId', 'addTime', 'phone']);
}
