import type { CreateTableBuilder, Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

/** An auto-increment integer primary key on both databases. */
export function withAutoId<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, any>, column: string) {
  return dialectOf(db) === 'postgres'
    ? table.addColumn(column, 'serial', (c) => c.primaryKey())
    : table.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement());
}

/** addUser / editUser / addTime / editTime, the audit columns of SPEC §3. */
export function withAudit<T extends string>(table: CreateTableBuilder<T, any>) {
  return table
    .addColumn('addUser', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('editUser', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('addTime', 'bigint', (c) => c.notNull())
    .addColumn('editTime', 'bigint', (c) => c.notNull());
}
