import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Named statements kept per connection; beyond it statements run unnamed (parsed and planned each time), as before. */
export const MAX_PREPARED_PER_CONNECTION = 200;

// A text whose number of parameters follows the data (an IN list, a multi-row VALUES) would prepare
// a new statement per length: those stay unnamed.
const VARIABLE_LIST = /\bin \(\$\d+, |\), \(\$/i;

export const isPreparable = (text: string) => !VARIABLE_LIST.test(text);

const statementName = (text: string) => `k_${createHash('sha1').update(text).digest('base64url')}`;

/** Text → its statement name, or null for a text left unnamed; remembered for the texts seen most recently. */
const names = new Map<string, string | null>();
const NAMES_REMEMBERED = 1000;

function nameOf(text: string): string | null {
  let name = names.get(text);
  if (name === undefined) {
    name = isPreparable(text) ? statementName(text) : null;
    if (names.size >= NAMES_REMEMBERED) names.delete(names.keys().next().value!);
    names.set(text, name);
  }
  return name;
}

/**
 * Makes a pool connection send repeated statements as named prepared statements. node-postgres
 * prepares a query that has a `name` once per connection and afterwards only binds and executes it;
 * Kysely sends every query unnamed, so PostgreSQL parsed and planned each one anew — a fifth of its
 * CPU under the device engine's load (perf, docs/performance.md). The name is a hash of the text, so
 * the same text always finds its statement; texts with variable lists are left unnamed, and at most
 * MAX_PREPARED_PER_CONNECTION are kept per connection (the ones first seen; later ones run unnamed, as before).
 */
export function prepareRepeatedStatements(client: pg.PoolClient | pg.Client, limit = MAX_PREPARED_PER_CONNECTION): void {
  const prepared = new Set<string>();
  const query = client.query.bind(client) as (config: unknown, values?: unknown) => unknown;
  client.query = ((config: unknown, values?: unknown) => {
    const name = typeof config === 'string' && Array.isArray(values) && values.length > 0 ? nameOf(config) : null;
    if (name !== null) {
      if (prepared.has(name) || prepared.size < limit) {
        prepared.add(name);
        return query({ name, text: config as string, values });
      }
    }
    return query(config, values);
  }) as typeof client.query;
}
