import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { dialectOf } from './dialect.ts';
import { isPreparable } from './pg-prepared.ts';
import type { Database, Queryable } from './schema.ts';

// Building and compiling a large query is Kysely's work on every call (a fifth of the server's busy
// time under the device engine's load, docs/performance.md). A hot statement whose shape never
// changes is built once per database kind with stand-ins for its values, and each call only puts
// its values in the stand-ins' places among the compiled parameters.

const SLOT = Symbol('slot');
type StandIn = { readonly [SLOT]: string };
const isStandIn = (value: unknown): value is StandIn => typeof value === 'object' && value !== null && SLOT in value;
/** The name of the value a stand-in stands for; undefined for any other value. */
export const standInNameOf = (value: unknown): string | undefined => (isStandIn(value) ? value[SLOT] : undefined);

/** Stand-ins for the values of P: each reads as the name of the value it stands for. */
export const standIns = <P>() => new Proxy({}, { get: (_, key) => (typeof key === 'string' ? { [SLOT]: key } : undefined) }) as P;

/** The statement `build` makes, compiled once per database kind, with each call's values put in their places. */
function compiledWithValues<P extends Record<string, unknown>, R>(build: (db: Kysely<Database>, values: P) => Compilable<R>) {
  const compiled = new Map<string, CompiledQuery<R>>();
  return (db: Queryable, values: P): CompiledQuery<R> => {
    const kind = dialectOf(db);
    let query = compiled.get(kind);
    if (!query) {
      query = build(db, standIns<P>()).compile();
      // A hot statement sent unnamed is parsed and planned on every call (the report was, for an `in ($1, $2)`).
      if (kind === 'postgres' && !isPreparable(query.sql)) throw new Error(`compiledOnce: the statement would not be prepared (write fixed lists as literals): ${query.sql.slice(0, 120)}`);
      compiled.set(kind, query);
    }
    return { ...query, parameters: query.parameters.map((p) => (isStandIn(p) ? values[p[SLOT]] : p)) };
  };
}

/**
 * A statement built and compiled once per database kind and run with new values each time; answers its
 * rows. `build` must not look at the values (they are stand-ins while it builds): pass each as a flat
 * parameter and use it only where Kysely takes a value (a value of `undefined` is sent as such: give
 * every value, null where the column is to be null).
 */
export function compiledOnce<P extends Record<string, unknown>, R>(build: (db: Kysely<Database>, values: P) => Compilable<R>) {
  const statement = compiledWithValues(build);
  return async (db: Queryable, values: P): Promise<R[]> => (await db.executeQuery<R>(statement(db, values))).rows;
}

/** `compiledOnce` for an update, insert or delete without `returning`: answers how many rows it changed. */
export function compiledWrite<P extends Record<string, unknown>>(build: (db: Kysely<Database>, values: P) => Compilable<unknown>) {
  const statement = compiledWithValues(build);
  return async (db: Queryable, values: P): Promise<number> => Number((await db.executeQuery(statement(db, values))).numAffectedRows ?? 0);
}

/**
 * `compiledOnce` for a statement of several shapes (a filter there or not, a list of N values, pieces of a
 * span): `shape` names the one `build` makes; each shape is compiled once per database kind (at most
 * SHAPES_KEPT kept, the oldest dropped), each call puts its values in their places. As with compiledOnce,
 * `build` must not look at the values it is given (stand-ins); the shape must say all that changes the SQL.
 */
export function compiledPerShape() {
  const compiled = new Map<string, CompiledQuery<unknown>>();
  return async <P extends Record<string, unknown>, R>(db: Kysely<Database>, shape: string, build: (values: P) => Compilable<R>, values: P): Promise<R[]> => {
    const key = `${dialectOf(db)} ${shape}`;
    let query = compiled.get(key) as CompiledQuery<R> | undefined;
    if (!query) {
      query = build(standIns<P>()).compile();
      if (compiled.size >= SHAPES_KEPT) compiled.delete(compiled.keys().next().value!);
      compiled.set(key, query);
    }
    return (await db.executeQuery<R>({ ...query, parameters: query.parameters.map((p) => (isStandIn(p) ? values[p[SLOT]] : p)) })).rows;
  };
}
const SHAPES_KEPT = 2000;
