import type { Kysely } from 'kysely';
import type { Config } from './config.ts';
import type { Database } from './db/schema.ts';
import type { Access } from './http/caller.ts';
import type { CounterStore } from './infra/counter-store.ts';
import type { FileStore } from './infra/file-store.ts';
import type { InvalidatedCache } from './infra/invalidated-cache.ts';
import type { SecretBox } from './infra/secret-box.ts';
import type { SessionStore } from './infra/session-store.ts';

/** A machine as the terminal protocol knows it: its sealed terminal key and whether it may trade. */
export type KnownMachine = { machineId: number; machineNo: string; deptId: number; status: number; terminalKey: string };

/** How long an entry of the caches above lives without a write dropping it (the bound for a lost announcement). */
export const CACHE_MAX_AGE_MS = 5 * 60_000;

/** What every service gets: the database and the shared stores, plus a clock tests can move. */
export type AppContext = {
  config: Config;
  db: Kysely<Database>;
  sessions: SessionStore;
  counters: CounterStore;
  /** Users' roles, menus and permissions by userId. */
  accessCache: InvalidatedCache<number, Access>;
  /** Machines as a terminal call's signature check reads them, by machine number (modules/pay/terminal/auth.ts). */
  machineCache: InvalidatedCache<string, KnownMachine>;
  /** 支付配置 with their secrets opened, by id (modules/pay/gateways/pay-account-cache.ts, which gives them their type). */
  payAccountCache: InvalidatedCache<number, unknown>;
  /** Seals and opens payment secrets and terminal keys (infra/secret-box.ts). */
  secrets: SecretBox;
  /** Where stored files' bytes live: DATA_DIR/uploads or an S3-compatible bucket (infra/file-store.ts). */
  files: FileStore;
  now: () => number;
  /** With REDIS_URL: answers when Redis answers, rejects within a bound otherwise (/healthz). */
  redisPing?: () => Promise<void>;
};
