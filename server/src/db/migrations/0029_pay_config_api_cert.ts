import type { Kysely } from 'kysely';

// The WeChat Pay v2 merchant API certificate (v2 refunds need it), sealed like the other
// 支付配置 secrets (infra/sealed-columns.ts): PKCS#12 in base64 or PEM certificate + key, uploaded in the dialog.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pay_config').addColumn('apiCert', 'text', (c) => c.notNull().defaultTo('')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pay_config').dropColumn('apiCert').execute();
}
