import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dialectOf } from './dialect.ts';
import { withAutoId } from './migrations/helpers.ts';

// The columns a list screen's contains filter (`contains` in db/list/search.ts) searches, and the index
// that backs each of them: a `lower(x) like '%…%'` filter can use no B-tree index, so
// without one every filtered list scans its whole table, twice.
//
// - PostgreSQL: a GIN trigram index (`pg_trgm`) on `lower(column)`: the planner uses it for
//   `lower(column) like '%abc%'` when the text has 3 characters or more.
// - SQLite: one FTS5 table per searched table (`<table>_search`, tokenizer `trigram`, external content:
//   it stores the index only, the text stays in the table), kept in step by three triggers. The filter
//   asks it for the matching rowids (`match '<column> : "abc"'`) — or, for a term so common that the
//   page is found sooner by walking the sort index, compares the walked rows with `like` (db/list/search-plan.ts
//   `planSearches` chooses per request). The update trigger fires only when a
//   searched column changes, so the hot counter updates of tasks and devices never touch it.
//
// A text shorter than 3 characters has no trigram: both databases then test the column row by row,
// which is fast for page 1 (short texts match many rows, found early in the sort order) and bounded
// for the count (db/list/counting.ts counts at most LIST_COUNT_BOUND + 1 rows).
//
// A new searched column: add it here AND create its index in a new migration (`createSearchIndex`
// with the table's full column list; the search-index test checks every column here has one).

/** The searched columns of each table, and the table's integer key (its SQLite rowid). */
export const searchIndexes = {
  sys_user: { key: 'userId', columns: ['userName', 'userMobile'] },
  sys_dept: { key: 'deptId', columns: ['deptName', 'deptNo'] },
  sys_role: { key: 'roleId', columns: ['roleName', 'roleNo'] },
  sys_permission: { key: 'permissionId', columns: ['permissionName', 'permission'] },
  sys_variable: { key: 'varId', columns: ['varLable', 'varName'] },
  sys_oper_log: { key: 'operId', columns: ['userName'] }, // module: an equality filter since 0014; userName: a value list (0020)
  sys_login_log: { key: 'infoId', columns: ['userName', 'ip'] }, // userName: a value list (0020)
  sync_task: { key: 'taskId', columns: ['taskName'] },
  sync_reply: { key: 'id', columns: ['content'] },
  sync_auth_code: { key: 'id', columns: ['authCode', 'machineName'] },
  pay_config: { key: 'id', columns: ['name', 'partner'] },
  pay_machine: { key: 'machineId', columns: ['machineNo', 'machineName'] },
  sys_oper_log_user_names: { key: 'id', columns: ['value'] },
  sys_login_log_user_names: { key: 'id', columns: ['value'] },
} as const satisfies Record<string, { key: string; columns: readonly string[] }>;

export type SearchedTable = keyof typeof searchIndexes;
export type SearchedColumn<T extends SearchedTable> = (typeof searchIndexes)[T]['columns'][number];

/**
 * Searched columns whose values repeat: the account name of a log entry (a platform has hundreds or
 * thousands of accounts, a log millions of rows). Such a column is searched in a table of its distinct
 * values (`createValueList`: filled by a trigger on insert, with its own search index above), and the
 * list then filters by equality on the values found, off a (column, time, key) index of the big table:
 * `wangfang` in a million log rows asks 1,000 names, then reads one name's rows newest first. The big
 * table needs no trigram index of the column. Values stay when their rows go (the retention sweep):
 * an old name then matches nothing.
 */
export const valueLists: { readonly [T in SearchedTable]?: { readonly [C in SearchedColumn<T>]?: SearchedTable } } = {
  sys_oper_log: { userName: 'sys_oper_log_user_names' },
  sys_login_log: { userName: 'sys_login_log_user_names' },
};

/** The value list of a searched column, if it has one. */
export const valueListOf = (table: SearchedTable, column: string): SearchedTable | undefined =>
  (valueLists[table] as Record<string, SearchedTable> | undefined)?.[column];

/**
 * PostgreSQL: searched columns whose text is words joined by punctuation, with the punctuation and the
 * letters its index reads in its place. pg_trgm splits a text into words at every character that is not a
 * letter or digit, so a term's trigrams are those of its words: ip `10.3.7` asks for the trigrams of `10`,
 * `3` and `7`, each held by most of a million login rows (GIN bitmaps of 924 candidates, 4.5 ms). Indexed
 * as `translate(lower(ip), '.:', 'xy')` the term's trigrams span the dots (`10x`, `0x3`, `x3x`, `3x7`).
 * A match of the translated text is then checked against the column itself (`contains`).
 */
export const joinedWords: { readonly [T in SearchedTable]?: { readonly [C in SearchedColumn<T>]?: readonly [punctuation: string, letters: string] } } = {
  sys_login_log: { ip: ['.:', 'xy'] },
};

const joinedWordsOf = (table: string, column: string) =>
  (joinedWords[table as SearchedTable] as Record<string, readonly [string, string]> | undefined)?.[column];

/** PostgreSQL: what the trigram index of a searched column holds for the column `ref`: lower(ref), its punctuation translated (`joinedWords`). */
export function pgSearchedText(table: string, column: string, ref: string): RawBuilder<string> {
  const joined = joinedWordsOf(table, column);
  return joined ? sql<string>`translate(lower(${sql.ref(ref)}), ${sql.lit(joined[0])}, ${sql.lit(joined[1])})` : sql<string>`lower(${sql.ref(ref)})`;
}

/** PostgreSQL: a search term as the trigram index of the column reads it (lowercase, punctuation translated); whether it was translated. */
export function pgSearchedTerm(table: string, column: string, text: string): { term: string; translated: boolean } {
  const joined = joinedWordsOf(table, column);
  const lower = text.toLowerCase();
  if (!joined) return { term: lower, translated: false };
  return { term: [...lower].map((c) => { const at = joined[0].indexOf(c); return at < 0 ? c : joined[1][at]!; }).join(''), translated: true };
}

/** The SQLite FTS5 table of a searched table. */
export const searchTableOf = (table: string) => `${table}_search`;

/** The PostgreSQL trigram index of a searched column. */
export const trigramIndexOf = (table: string, column: string) => `${table}_${column}_trgm`;

/**
 * Creates the index of `columns` of `table` (all of its searched columns: on SQLite they share one
 * FTS5 table) and fills it from the rows already there. Used by migrations only.
 */
export async function createSearchIndex(db: Kysely<any>, table: string, key: string, columns: readonly string[]): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`create extension if not exists pg_trgm`.execute(db);
    for (const column of columns) await createTrigramIndex(db, table, column);
    return;
  }
  const search = searchTableOf(table);
  const cols = sql.join(columns.map((c) => sql.ref(c)));
  const newValues = sql.join(columns.map((c) => sql.ref(`new.${c}`)));
  const oldValues = sql.join(columns.map((c) => sql.ref(`old.${c}`)));
  const deleteOld = sql`insert into ${sql.table(search)} (${sql.table(search)}, rowid, ${cols}) values ('delete', ${sql.ref(`old.${key}`)}, ${oldValues})`;
  const insertNew = sql`insert into ${sql.table(search)} (rowid, ${cols}) values (${sql.ref(`new.${key}`)}, ${newValues})`;
  await sql`create virtual table ${sql.table(search)} using fts5(${cols}, content=${sql.lit(table)}, content_rowid=${sql.lit(key)}, tokenize='trigram')`.execute(db);
  await sql`create trigger ${sql.id(`${search}_insert`)} after insert on ${sql.table(table)} begin ${insertNew}; end`.execute(db);
  await sql`create trigger ${sql.id(`${search}_delete`)} after delete on ${sql.table(table)} begin ${deleteOld}; end`.execute(db);
  await sql`create trigger ${sql.id(`${search}_update`)} after update of ${cols} on ${sql.table(table)} begin ${deleteOld}; ${insertNew}; end`.execute(db);
  await sql`insert into ${sql.table(search)} (${sql.table(search)}) values ('rebuild')`.execute(db);
}

/** PostgreSQL: the GIN trigram index of a searched column (of `pgSearchedText`). Used by migrations only. */
export async function createTrigramIndex(db: Kysely<any>, table: string, column: string): Promise<void> {
  await sql`create index ${sql.id(trigramIndexOf(table, column))} on ${sql.table(table)} using gin (${pgSearchedText(table, column, column)} gin_trgm_ops)`.execute(db);
}

/**
 * Drops the index of `table` (PostgreSQL: the trigram index of each of `columns`; SQLite: the FTS5
 * table and its triggers, all columns at once). Used by migrations only, before createSearchIndex
 * with the columns that stay searched.
 */
export async function dropSearchIndex(db: Kysely<any>, table: string, columns: readonly string[]): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    for (const column of columns) await sql`drop index if exists ${sql.id(trigramIndexOf(table, column))}`.execute(db);
    return;
  }
  const search = searchTableOf(table);
  for (const trigger of ['insert', 'delete', 'update']) await sql`drop trigger if exists ${sql.id(`${search}_${trigger}`)}`.execute(db);
  await sql`drop table if exists ${sql.table(search)}`.execute(db);
}

/**
 * Creates the value list of `column` of `table` (see `valueLists`): the table of distinct values with
 * its search index, filled from the rows already there and kept filled by a trigger on insert and on an
 * update of the column. Used by migrations only.
 */
export async function createValueList(db: Kysely<any>, table: string, column: string, valueTable: string): Promise<void> {
  await withAutoId(db, db.schema.createTable(valueTable), 'id').addColumn('value', 'varchar(255)', (c) => c.notNull().unique()).execute();
  await sql`insert into ${sql.table(valueTable)} (value) select distinct ${sql.ref(column)} from ${sql.table(table)}`.execute(db);
  const fill = `${valueTable}_fill`;
  if (dialectOf(db) === 'postgres') {
    // `where not exists` first: a known value (nearly every insert) then takes no sequence number
    await sql`create function ${sql.id(fill)}() returns trigger language plpgsql as $$ begin
      insert into ${sql.table(valueTable)} (value) select new.${sql.ref(column)}
        where not exists (select 1 from ${sql.table(valueTable)} where value = new.${sql.ref(column)}) on conflict do nothing;
      return null;
    end $$`.execute(db);
    await sql`create trigger ${sql.id(fill)} after insert or update of ${sql.ref(column)} on ${sql.table(table)} for each row execute function ${sql.id(fill)}()`.execute(db);
  } else {
    const insertValue = sql`insert or ignore into ${sql.table(valueTable)} (value) values (${sql.ref(`new.${column}`)})`;
    await sql`create trigger ${sql.id(`${fill}_insert`)} after insert on ${sql.table(table)} begin ${insertValue}; end`.execute(db);
    await sql`create trigger ${sql.id(`${fill}_update`)} after update of ${sql.ref(column)} on ${sql.table(table)} begin ${insertValue}; end`.execute(db);
  }
  await createSearchIndex(db, valueTable, 'id', ['value']);
}
