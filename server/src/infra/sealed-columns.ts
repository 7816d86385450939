import { sql, type Kysely } from 'kysely';
import type { SecretBox } from './secret-box.ts';
import type { Database } from '../db/schema.ts';

// Every column that holds a sealed secret, in one list: `npm run secrets:reseal` walks it, and the
// purpose a value is sealed for is always `<table>.<column>` (sealPurpose), so a value copied into
// another column does not open there. A table with a sealed column adds its line here.
export type SealedTable = { table: keyof Database & string; key: string; columns: string[] };

export const sealedColumns: SealedTable[] = [
  { table: 'pay_config', key: 'id', columns: ['partnerKey', 'certPassword', 'rsaKey', 'apiV3Key', 'appPrivateKey', 'apiCert'] },
  { table: 'pay_machine', key: 'machineId', columns: ['terminalKey'] },
];

export const sealPurpose = (table: string, column: string) => `${table}.${column}`;

/**
 * Re-seals, under the box's current key, every sealed value that names another key. Each row in its
 * own short update guarded by the value read, so a concurrent save is never overwritten. Returns how
 * many values were re-sealed.
 */
export async function resealAll(db: Kysely<Database>, box: SecretBox, tables: SealedTable[] = sealedColumns): Promise<number> {
  let resealed = 0;
  for (const { table, key, columns } of tables) {
    for (const column of columns) {
      const rows = await sql<{ id: number; value: string }>`select ${sql.ref(key)} as id, ${sql.ref(column)} as value from ${sql.table(table)} where ${sql.ref(column)} is not null and ${sql.ref(column)} <> ''`.execute(db);
      for (const row of rows.rows) {
        if (box.isCurrent(row.value)) continue;
        const purpose = sealPurpose(table, column);
        const next = box.seal(purpose, box.open(purpose, row.value));
        const done = await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${next} where ${sql.ref(key)} = ${row.id} and ${sql.ref(column)} = ${row.value}`.execute(db);
        resealed += Number(done.numAffectedRows ?? 0n);
      }
    }
  }
  return resealed;
}
