import type { Kysely } from 'kysely';
import type { Config } from './config.ts';
import type { Database } from './db/schema.ts';
import type { Access } from './http/caller.ts';
import type { AccessCache } from './infra/access-cache.ts';
import type { CounterStore } from './infra/counter-store.ts';
import type { SecretBox } from './infra/secret-box.ts';
import type { SessionStore } from './infra/session-store.ts';

/** What every service gets: the database and the shared stores, plus a clock tests can move. */
export type AppContext = {
  config: Config;
  db: Kysely<Database>;
  sessions: SessionStore;
  counters: CounterStore;
  accessCache: AccessCache<Access>;
  /** Seals and opens payment secrets and terminal keys (infra/secret-box.ts). */
  secrets: SecretBox;
  now: () => number;
};
