import type { Kysely } from 'kysely';

// 证书路径 (certPath) leaves pay_config: the WeChat Pay v2 API certificate is stored sealed in apiCert
// (migration 0029), so no file path on the server is read any more. Both databases drop the column
// (SQLite since 3.35: it is in no index, trigger or constraint).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pay_config').dropColumn('certPath').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pay_config').addColumn('certPath', 'varchar(255)', (c) => c.notNull().defaultTo('')).execute();
}
