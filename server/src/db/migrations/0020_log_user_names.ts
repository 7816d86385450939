import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { createSearchIndex, createValueList, dropSearchIndex } from '../search-index.ts';

// 操作日志 / 登录日志's 用户名 filter searches the log's accounts, not its million rows:
// `wangfang` through the log's own trigram index merged the doclists of `wan`, `ang`, … (every wang, zhang,
// huang) and counted by looking up 1,001 matches: ~10 ms a request on SQLite, 93/s at 50 connections
// (docs/performance.md). Now the account names a log has seen are a table of their own (search-index.ts
// `valueLists`), searched by its own trigram index, and the log is read by equality on the names found off
// (userName, time, key): one name's page is its first 10 index entries, its count at most 1,001 of them.
// The log's trigram index of the name goes; 登录日志's ip keeps its own (ips hardly repeat).
export async function up(db: Kysely<any>): Promise<void> {
  await createValueList(db, 'sys_oper_log', 'userName', 'sys_oper_log_user_names');
  await db.schema.createIndex('sys_oper_log_user_time').on('sys_oper_log').columns(['userName', 'operTime', 'operId']).execute();
  // SQLite: the log's FTS5 table held the name alone (0014), so it goes with its triggers
  await dropSearchIndex(db, 'sys_oper_log', ['userName']);

  await createValueList(db, 'sys_login_log', 'userName', 'sys_login_log_user_names');
  await db.schema.createIndex('sys_login_log_user_time').on('sys_login_log').columns(['userName', 'loginTime', 'infoId']).execute();
  // SQLite: one FTS5 table held name and ip: made again for the ip alone
  await dropSearchIndex(db, 'sys_login_log', ['userName']);
  if (dialectOf(db) === 'sqlite') await createSearchIndex(db, 'sys_login_log', 'infoId', ['ip']);
}
