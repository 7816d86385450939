import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { createSearchIndex, dropSearchIndex } from '../search-index.ts';

// 操作日志's 模块 filter is an equality filter: the module of an entry is one of a known set
// of screens (contract operLogModules), picked from a list, not typed. A contains search on it read
// 1 row in 15 of a million through the trigram index (2.9 s p95 at 50 connections on SQLite); the
// index (module, operTime, operId) reads the page newest first and stops after 10 rows.
// The module's trigram index goes: nothing searches it any more, and every log insert paid for it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('sys_oper_log_module_time').on('sys_oper_log').columns(['module', 'operTime', 'operId']).execute();
  // PostgreSQL: the module's GIN index. SQLite: the log's FTS5 table indexed both columns, so it is
  // made again for the user name alone (written out here, not read from search-index.ts).
  await dropSearchIndex(db, 'sys_oper_log', ['module']);
  if (dialectOf(db) === 'sqlite') await createSearchIndex(db, 'sys_oper_log', 'operId', ['userName']);
}
