import path from 'node:path';
import { z } from 'zod';

// Every setting comes from the environment and is checked once at start; a bad value stops the
// server with a line naming the variable instead of failing later somewhere else.
const intIn = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const schema = z.object({
  PORT: intIn(0, 65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_PREPARED_STATEMENTS: z.enum(['true', 'false']).default('true'),
  DATABASE_POOL_SIZE: intIn(1, 1000).default(20),
  // PostgreSQL: how long a request waits for a pool connection, how many may wait; past either it answers 503
  DATABASE_POOL_WAIT_MS: intIn(1, 600_000).default(5_000),
  DATABASE_POOL_MAX_WAITING: intIn(0, 100_000).default(1_000),
  // PostgreSQL: the statement timeout of a console read and of an export (0: none; http/statement-timeouts.ts)
  CONSOLE_STATEMENT_TIMEOUT_MS: intIn(0, 3_600_000).default(15_000),
  EXPORT_STATEMENT_TIMEOUT_MS: intIn(0, 3_600_000).default(120_000),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional(),
  REDIS_PREFIX: z.string().min(1).max(100).default('huiyun:'),
  SERVER_WORKERS: intIn(1, 64).default(1),
  // on SIGTERM: how long requests in flight may take to finish before their connections are cut (http/drain.ts)
  SHUTDOWN_GRACE_SECONDS: intIn(0, 600).default(20),
  SHUTDOWN_NOTICE_MS: intIn(0, 60_000).default(0),
  ADMIN_PASSWORD: z.string().min(6, 'must be at least 6 characters').max(64).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_IDLE_MINUTES: intIn(1, 60 * 24 * 30).default(30),
  SESSION_REMEMBER_DAYS: intIn(1, 365).default(7),
  LOGIN_SLOWDOWN_AFTER: intIn(1, 1000).default(5),
  LOGIN_LOCKOUT_AFTER: intIn(1, 1000).default(10),
  LOGIN_IP_LOCKOUT_AFTER: intIn(1, 100000).default(50),
  LOGIN_ACCOUNT_LOCKOUT_AFTER: intIn(1, 100000).default(100),
  LOGIN_LOCKOUT_MINUTES: intIn(1, 24 * 60).default(15),
  LOGIN_SLOWDOWN_MS: intIn(0, 60000).default(1000),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  WEB_DIST: z.string().optional(),
  UPLOAD_MAX_MB: intIn(1, 10_240).default(200),
  E2E_SEED: z.enum(['0', '1']).default('0'),
  DEVICE_LEASE_SECONDS: intIn(1, 24 * 60 * 60).default(300),
  DEVICE_MAX_ATTEMPTS: intIn(1, 100).default(3),
  DEVICE_ACTIVATE_IP_LIMIT: intIn(1, 100000).default(20),
  DEVICE_ACTIVATE_CODE_LIMIT: intIn(1, 100000).default(10),
  DEVICE_ACTIVATE_LOCKOUT_MINUTES: intIn(1, 24 * 60).default(15),
  LOG_RETENTION_DAYS: intIn(1, 36_500).default(180),
  CHARTS_RANK_CACHE_SECONDS: intIn(0, 3600).default(30),
  PAY_SWEEP_SECONDS: intIn(1, 3600).default(15),
  PAY_RECOVER_SECONDS: intIn(1, 24 * 60 * 60).default(60),
  PAY_DISPENSE_TIMEOUT_SECONDS: intIn(10, 24 * 60 * 60).default(300),
  PAY_RECONCILE_AT: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:mm (Asia/Shanghai), e.g. 10:30').default('10:30'),
  // 对账 of today so far: for demos against tools/fake-gateways only (a real gateway has no bill before the day ended)
  PAY_RECONCILE_TODAY: z.enum(['true', 'false']).default('false'),
  PAY_SECRET_KEY: z.string().refine(isKey32, 'must be 32 bytes in base64').optional(),
  PUBLIC_BASE_URL: z.string().regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'must be an http(s) URL').optional(),
  WECHATPAY_BASE_URL: z.string().regex(/^https?:\/\/\S+$/, 'must be an http(s) URL').default('https://api.mch.weixin.qq.com'),
  ALIPAY_GATEWAY_URL: z.string().regex(/^https?:\/\/\S+$/, 'must be an http(s) URL').default('https://openapi.alipay.com/gateway.do'),
  PAY_SECRET_PREVIOUS_KEYS: z.string().refine((v) => v.split(',').every(isKey32), 'must be a comma list of 32-byte base64 keys').optional(),
  // GET /metrics (Prometheus) answers only with this bearer token; unset, the route is off
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  // A scheduled backup of the embedded deployment (SQLite): where, when (HH:mm, the server's local time), how many kept
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_AT: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:mm, e.g. 03:30').default('03:30'),
  BACKUP_KEEP: intIn(1, 1000).default(7),
  // Where uploaded files live: this host's DATA_DIR/uploads, or an S3-compatible bucket several hosts share
  FILE_STORE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.string().regex(/^https?:\/\/\S+$/, 'must be an http(s) URL').optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  S3_PREFIX: z.string().regex(/^([A-Za-z0-9_.-]+\/)*$/, 'must be empty or end with /, e.g. huiyun/').default(''),
});

// Variables whose value is never echoed in an error (it is a key).
const SECRET_VARIABLES = new Set(['PAY_SECRET_KEY', 'PAY_SECRET_PREVIOUS_KEYS', 'METRICS_TOKEN', 'S3_SECRET_ACCESS_KEY']);

function isKey32(value: string): boolean {
  return /^[A-Za-z0-9+/]+={0,2}$/.test(value.trim()) && Buffer.from(value.trim(), 'base64').length === 32;
}

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL: send repeated statements as named prepared statements (off behind a pooler that cannot keep them). */
  preparedStatements: boolean;
  /** PostgreSQL: connections this server instance keeps open at most. */
  poolSize: number;
  /** PostgreSQL: how long a request waits for a connection, and how many wait at most, before it is answered 503. */
  poolWaitMs: number;
  poolMaxWaiting: number;
  /** PostgreSQL: the statement timeout of a console read and of an export, in ms (0: none). */
  statementTimeouts: { readMs: number; exportMs: number };
  redisUrl?: string;
  /** The start of every Redis key and channel: several deployments (or test runs) on one Redis do not meet. */
  redisPrefix: string;
  /** Server processes on the one port (node:cluster, main.ts): more than 1 only on PostgreSQL with Redis. */
  workers: number;
  /** On SIGTERM, how long requests in flight may take to finish (http/drain.ts). */
  shutdownGraceMs: number;
  /** How long a draining instance still takes connections after /healthz turned 503 (its balancer's notice). */
  shutdownNoticeMs: number;
  /** The bearer token of GET /metrics; undefined: the route is off. */
  metricsToken?: string;
  adminPassword?: string;
  logLevel: string;
  sessionIdleMs: number;
  sessionRememberMs: number;
  login: { slowdownAfter: number; lockoutAfter: number; ipLockoutAfter: number; accountLockoutAfter: number; lockoutMs: number; slowdownMs: number };
  trustProxy: boolean;
  webDist: string;
  e2eSeed: boolean;
  /** Largest file /upload/files takes. */
  uploadMaxMb: number;
  /** The scheduled backup (infra/scheduled-backup.ts): off without a folder. */
  backup: { dir?: string; at: string; keep: number };
  /** Where uploaded files live (infra/file-store.ts): DATA_DIR/uploads, or an S3-compatible bucket. */
  fileStore: { kind: 'local' } | S3StoreConfig;
  /** The sending engine: how long a pulled batch stays leased, how often a number may fail before it is final. */
  device: {
    leaseMs: number;
    maxAttempts: number;
    /** Failed activations allowed per address and per code in a window of activateWindowMs. */
    activateIpLimit: number;
    activateCodeLimit: number;
    activateWindowMs: number;
  };
  /** 操作日志 and 登录日志 rows older than this many days are deleted (db/log-retention.ts, swept hourly). */
  logRetentionDays: number;
  /** 数据可视化: how long a server instance keeps a top-10 it computed (0: never; sales-charts/rank-cache.ts). */
  chartsRankCacheMs: number;
  /** The order sweeper: how often it runs, and how long a lease (and a refund left under way) lasts before it is taken over. */
  pay: { sweepMs: number; recoverMs: number; dispenseTimeoutMs: number; /** 'HH:mm' Asia/Shanghai: the daily 对账 of yesterday */ reconcileAt: string; /** 对账 of today so far allowed (demos against the fakes) */ reconcileToday: boolean };
  /**
   * The key that seals payment secrets and terminal keys (infra/secret-key.ts): base64 of 32 bytes, or
   * unset for a key file in dataDir. Previous keys still open what they sealed, until resealed.
   */
  paySecretKey?: string;
  paySecretPreviousKeys: string[];
  /**
   * How the gateways reach this server (notify URLs are built from it); unset: the origin of the request
   * that created the order. WeChat Pay's and Alipay's addresses: the real services unless pointed at the fakes.
   */
  publicBaseUrl?: string;
  wechatpayBaseUrl: string;
  alipayGatewayUrl: string;
  /** Tests pass a ready database name; otherwise SQLite under dataDir or DATABASE_URL. */
  sqliteFile?: string;
};

/** An S3-compatible bucket: AWS S3, MinIO (path-style), Aliyun OSS, Tencent COS. */
export type S3StoreConfig = {
  kind: 's3';
  bucket: string;
  region: string;
  endpoint?: string;
  /** Unset: the SDK's own chain (environment, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** bucket in the path (MinIO and most self-hosted stores) rather than in the host name. */
  forcePathStyle: boolean;
  /** Put before every key, so that one bucket can hold several deployments. */
  prefix: string;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0]);
      return `  ${i.path.join('.')}: ${i.message}${SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(env[name])})`}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // SQLite is one process's database; several processes agree on sessions, throttles and the
  // permission cache only through Redis (docs/architecture.md "Caches and limits").
  if (e.SERVER_WORKERS > 1 && (!e.DATABASE_URL || !e.REDIS_URL)) {
    throw new ConfigError('Invalid configuration:\n  SERVER_WORKERS: more than 1 needs DATABASE_URL (PostgreSQL: SQLite is served by one process) and REDIS_URL (the processes agree through it)');
  }
  if (e.FILE_STORE === 's3' && !e.S3_BUCKET) throw new ConfigError('Invalid configuration:\n  S3_BUCKET: FILE_STORE=s3 needs the bucket');
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
    throw new ConfigError('Invalid configuration:\n  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither (neither: the SDK finds credentials itself)');
  }
  const repoRoot = path.resolve(import.meta.dirname, '../..');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    preparedStatements: e.DATABASE_PREPARED_STATEMENTS === 'true',
    poolSize: e.DATABASE_POOL_SIZE,
    poolWaitMs: e.DATABASE_POOL_WAIT_MS,
    poolMaxWaiting: e.DATABASE_POOL_MAX_WAITING,
    statementTimeouts: { readMs: e.CONSOLE_STATEMENT_TIMEOUT_MS, exportMs: e.EXPORT_STATEMENT_TIMEOUT_MS },
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    workers: e.SERVER_WORKERS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    shutdownNoticeMs: e.SHUTDOWN_NOTICE_MS,
    metricsToken: e.METRICS_TOKEN,
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    sessionIdleMs: e.SESSION_IDLE_MINUTES * 60_000,
    sessionRememberMs: e.SESSION_REMEMBER_DAYS * 86_400_000,
    login: {
      slowdownAfter: e.LOGIN_SLOWDOWN_AFTER,
      lockoutAfter: e.LOGIN_LOCKOUT_AFTER,
      ipLockoutAfter: e.LOGIN_IP_LOCKOUT_AFTER,
      accountLockoutAfter: e.LOGIN_ACCOUNT_LOCKOUT_AFTER,
      lockoutMs: e.LOGIN_LOCKOUT_MINUTES * 60_000,
      slowdownMs: e.LOGIN_SLOWDOWN_MS,
    },
    trustProxy: e.TRUST_PROXY === 'true',
    webDist: path.resolve(e.WEB_DIST ?? path.join(repoRoot, 'web/dist')),
    e2eSeed: e.E2E_SEED === '1',
    uploadMaxMb: e.UPLOAD_MAX_MB,
    backup: { dir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : undefined, at: e.BACKUP_AT, keep: e.BACKUP_KEEP },
    fileStore: e.FILE_STORE === 's3'
      ? {
        kind: 's3',
        bucket: e.S3_BUCKET!,
        region: e.S3_REGION,
        endpoint: e.S3_ENDPOINT,
        credentials: e.S3_ACCESS_KEY_ID ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY! } : undefined,
        forcePathStyle: e.S3_FORCE_PATH_STYLE ? e.S3_FORCE_PATH_STYLE === 'true' : Boolean(e.S3_ENDPOINT),
        prefix: e.S3_PREFIX,
      }
      : { kind: 'local' },
    device: {
      leaseMs: e.DEVICE_LEASE_SECONDS * 1000,
      maxAttempts: e.DEVICE_MAX_ATTEMPTS,
      activateIpLimit: e.DEVICE_ACTIVATE_IP_LIMIT,
      activateCodeLimit: e.DEVICE_ACTIVATE_CODE_LIMIT,
      activateWindowMs: e.DEVICE_ACTIVATE_LOCKOUT_MINUTES * 60_000,
    },
    logRetentionDays: e.LOG_RETENTION_DAYS,
    chartsRankCacheMs: e.CHARTS_RANK_CACHE_SECONDS * 1000,
    pay: { sweepMs: e.PAY_SWEEP_SECONDS * 1000, recoverMs: e.PAY_RECOVER_SECONDS * 1000, dispenseTimeoutMs: e.PAY_DISPENSE_TIMEOUT_SECONDS * 1000, reconcileAt: e.PAY_RECONCILE_AT, reconcileToday: e.PAY_RECONCILE_TODAY === 'true' },
    paySecretKey: e.PAY_SECRET_KEY,
    paySecretPreviousKeys: e.PAY_SECRET_PREVIOUS_KEYS?.split(',').map((k) => k.trim()) ?? [],
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    wechatpayBaseUrl: e.WECHATPAY_BASE_URL.replace(/\/+$/, ''),
    alipayGatewayUrl: e.ALIPAY_GATEWAY_URL,
  };
}
