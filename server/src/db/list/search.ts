import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { pgSearchedTerm, pgSearchedText, searchIndexes, searchTableOf, valueListOf, type SearchedColumn, type SearchedTable } from '../search-index.ts';
import { ftsPhraseOf, ftsTrigramRows, keySpanOf, rowsSpanned, separateTrigrams, withoutDenseTrigrams } from './trigrams.ts';

// A list's contains filter (`contains`): its forms on SQLite (FTS5) and PostgreSQL (pg_trgm).

/** How many of a search's matches the probe reads: enough to tell a rare term from a common one. */
export const SEARCH_PROBE = 256;

/**
 * `column` (of `table`, as the query names it: `u.userName` or `userName`) contains `text`,
 * case-insensitively, with % and _ in the text taken literally; backed by the column's trigram index.
 *
 * On PostgreSQL it is `lower(x) like`, the planner choosing between the GIN trigram index and the sort
 * index. On SQLite a text of 3 characters or more is a *search*: `listPage` reads a rare term's few matches
 * (probed first) as a key list, a common one by walking the sort index with `like` (`planSearches`). A
 * column with a value list is searched in it, on both databases. Used outside `listPage` it is the IN list / the `like`.
 */
export function contains<T extends SearchedTable>(db: Kysely<any>, table: T, column: `${string}.${SearchedColumn<T>}` | SearchedColumn<T>, text: string): ListSearch {
  const dot = column.lastIndexOf('.');
  const name = column.slice(dot + 1);
  const spec = searchIndexes[table];
  if (!(spec.columns as readonly string[]).includes(name)) throw new Error(`${table}.${name} has no search index (db/search-index.ts)`);
  const pattern = likePatternOf(text);
  const key = dot < 0 ? spec.key : `${column.slice(0, dot)}.${spec.key}`;
  const trigrams = [...text].length - 2;
  const valueTable = valueListOf(table, name);
  if (valueTable) return searchValueList(db, column, valueTable, text, { table, key: spec.key, keyRef: key, trigrams });
  if (dialectOf(db) === 'postgres') {
    // pg_trgm's GIN index and the planner: one form, `lower(x) like` (the planner weighs the index against
    // walking the sort index). A column indexed with its punctuation translated (search-index.ts
    // joinedWords) is asked as the index reads it, each match checked against the column itself.
    const { term, translated } = pgSearchedTerm(table, name, text);
    return oneForm(trigrams < 1 || !translated
      ? sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`
      : sql<SqlBool>`${pgSearchedText(table, name, column)} like ${likePatternOf(term)} escape '\\' and strpos(lower(${sql.ref(column)}), ${text.toLowerCase()}) > 0`);
  }
  // SQLite's LIKE already ignores ASCII case (its lower() knows no other), so the column is compared as is.
  const scan = sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;
  if (trigrams < 1) return oneForm(scan);
  const search = searchTableOf(table);
  const fts = sql.table(search);
  /** The FTS5 forms of the filter for the text, or for parts of it (each match then checked with `like`). */
  const ftsForms = (parts: readonly string[]): Pick<Search, 'phrase' | 'indexed' | 'probe' | 'trigrams'> => {
    const phrase = ftsPhraseOf(name, parts);
    const matches = sql`select rowid from ${fts} where ${fts} match ${phrase}`;
    if (parts.length === 1 && parts[0] === text) {
      return {
        phrase, trigrams, indexed: sql<SqlBool>`${sql.ref(key)} in (${matches})`,
        // FTS5 answers rowids in ascending order: the first SEARCH_PROBE matches, read the cheap way round.
        probe: sql<{ k: unknown }>`select rowid as k from ${fts} where ${fts} match ${phrase} limit ${sql.lit(SEARCH_PROBE)}`,
      };
    }
    return {
      phrase, trigrams: parts.reduce((n, part) => n + [...part].length - 2, 0), indexed: sql<SqlBool>`${sql.ref(key)} in (${matches}) and ${scan}`,
      probe: sql<{ k: unknown }>`select rowid as k from ${fts} where ${fts} match ${phrase}
        and (select ${sql.ref(name)} from ${sql.table(table)} where ${sql.ref(spec.key)} = ${fts}.rowid) like ${pattern} escape '\\' limit ${sql.lit(SEARCH_PROBE)}`,
    };
  };
  return searched({
    table, key: spec.key, keyRef: key, search, scan, ...ftsForms([text]),
    matchedKeys: (keys) => sql<SqlBool>`${sql.ref(key)} in (select value from json_each(${JSON.stringify(keys.map(Number))}))`,
    narrow: async (db) => {
      const counter = ftsTrigramRows(db, search, name);
      const span = await keySpanOf(db, table, spec.key);
      const parts = (await separateTrigrams(text, counter, rowsSpanned(span.first, span.last))) ?? (await withoutDenseTrigrams(text, counter));
      return parts.length === 1 && parts[0] === text ? undefined : ftsForms(parts);
    },
  });
}

/** `text` as a `like` pattern of a lowercase column: contained anywhere, % _ and \\ taken literally. */
export const likePatternOf = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;


/**
 * A contains filter on a column with a value list (search-index.ts `valueLists`): the values that
 * contain `text` are found in the value table (its trigram index; `like` for 1–2 characters, the table
 * being small), and the rows are those whose column equals one of them. The probe reads the values:
 * under SEARCH_PROBE of them (nearly always) they are the filter, by equality; more, and the filter is
 * the subquery of the value table.
 */
export function searchValueList(db: Kysely<any>, column: string, valueTable: SearchedTable, text: string, of: Pick<Search, 'table' | 'key' | 'keyRef' | 'trigrams'>): ListSearch {
  const pattern = likePatternOf(text);
  let values: RawBuilder<SqlBool>;
  if (dialectOf(db) === 'postgres') values = sql<SqlBool>`lower(value) like ${pattern} escape '\\'`;
  else if (of.trigrams < 1) values = sql<SqlBool>`value like ${pattern} escape '\\'`;
  else {
    const search = sql.table(searchTableOf(valueTable));
    values = sql<SqlBool>`id in (select rowid from ${search} where ${search} match ${ftsPhraseOf('value', [text])})`;
  }
  const among = sql<SqlBool>`${sql.ref(column)} in (select value from ${sql.table(valueTable)} where ${values})`;
  return searched({
    ...of, search: '', phrase: '', valueList: true, indexed: among, scan: among,
    probe: sql<{ k: unknown }>`select value as k from ${sql.table(valueTable)} where ${values} limit ${sql.lit(SEARCH_PROBE)}`,
    matchedKeys: (found) => {
      // one value: plain equality, so PostgreSQL reads (column, time, key) in order (= any(array) sorts every row of it)
      if (found.length === 1) return sql<SqlBool>`${sql.ref(column)} = ${String(found[0])}`;
      return dialectOf(db) === 'postgres'
        ? sql<SqlBool>`${sql.ref(column)} = any(${found.map(String)}::text[])`
        : sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(found.map(String))}))`;
    },
  });
}

/**
 * A contains filter that `listPage` reads one way or another (SQLite's searches of 3+ characters, and the
 * value lists of both databases): its forms, and the probe that chooses between them.
 */
export type Search = {
  table: string; key: string; keyRef: string; search: string; phrase: string; trigrams: number; indexed: RawBuilder<SqlBool>; scan: RawBuilder<SqlBool>;
  /** A search of the column's value list (`searchValueList`): `indexed` and `scan` are its subquery, the probe reads values. */
  valueList?: true;
  /** The term's first SEARCH_PROBE matches in the whole table, by key (of a value list: the values). */
  probe: RawBuilder<{ k: unknown }>;
  /** The filter as the keys (values) of all its matches (a rare term, whose probe read them all). */
  matchedKeys: (keys: unknown[]) => RawBuilder<SqlBool>;
  /** The forms for parts of the term that read less (`withoutDenseTrigrams`), if there are such parts. */
  narrow?: (db: Kysely<any>) => Promise<Partial<Pick<Search, 'phrase' | 'indexed' | 'scan' | 'probe' | 'trigrams'>> | undefined>;
};

/**
 * A contains filter as a list passes it to `listPage` (`searches`): the filter's `condition` (its one form, or
 * the FTS5 IN list) and, for a filter `listPage` may read another way, its `search`. Outside a list the
 * condition is the filter.
 */
export type ListSearch = { readonly condition: Expression<SqlBool>; readonly search?: Search };

const oneForm = (condition: RawBuilder<SqlBool>): ListSearch => ({ condition });
const searched = (search: Search): ListSearch => ({ condition: search.indexed, search });
