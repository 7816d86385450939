import type { Kysely } from 'kysely';
import type { Database } from './db/schema.ts';
import { seedReferenceData } from './db/seed.ts';
import { seedDemoPayments } from './modules/pay/machines/index.ts';
import type { SecretBox } from './infra/secret-box.ts';
import { seedAccounts } from './modules/system/accounts/index.ts';

export type SeedOptions = {
  adminPassword?: string;
  dataDir: string;
  e2eSeed?: boolean;
  log: (message: string) => void;
  now?: number;
  /** Seals the demo machines' terminal keys; without it (store tests) no payment demo is seeded. */
  secrets?: SecretBox;
};

/** Run at every start (app.ts), idempotent: the reference data (db/seed.ts), then the first accounts. */
export async function seed(db: Kysely<Database>, options: SeedOptions): Promise<void> {
  const { demoDeptId } = await seedReferenceData(db, options.now);
  if (options.secrets) await seedDemoPayments(db, { box: options.secrets, deptId: demoDeptId, now: options.now });
  await seedAccounts(db, { ...options, deptId: demoDeptId });
}
