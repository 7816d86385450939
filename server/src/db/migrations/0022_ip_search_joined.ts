import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { createTrigramIndex, trigramIndexOf } from '../search-index.ts';

// PostgreSQL: 登录日志's ip is indexed with its dots and colons read as letters (search-index.ts
// `joinedWords`), so pg_trgm's trigrams of a term span them: `10.3.7` in 1,000,000 login rows took 4.5 ms
// of GIN bitmaps (the trigrams of `10`, `3` and `7`, in most rows) and 188 ms p95 at 50 connections on the
// list bench. SQLite's FTS5 trigram tokenizer keeps punctuation already: nothing to do there.
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`drop index if exists ${sql.id(trigramIndexOf('sys_login_log', 'ip'))}`.execute(db);
  await createTrigramIndex(db, 'sys_login_log', 'ip');
}
