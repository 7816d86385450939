import path from 'node:path';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { messages } from '@huiyun/contract';
import type { Config } from './config.ts';
import { CACHE_MAX_AGE_MS, type AppContext, type KnownMachine } from './context.ts';
import { connectDatabase } from './db/connect.ts';
import { migrateToLatest, NewerDatabaseError } from './db/migrate.ts';
import type { Database } from './db/schema.ts';
import { seed } from './seed.ts';
import { registerAccessCheck } from './http/access-check.ts';
import { registerAudit } from './http/audit.ts';
import { registerConsole } from './http/console-static.ts';
import { fail } from './http/envelope.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { OneLineRequestLog } from './http/request-log.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerStatementTimeouts } from './http/statement-timeouts.ts';
import { InvalidatedCache } from './infra/invalidated-cache.ts';
import { MemoryCounterStore, RedisCounterStore } from './infra/counter-store.ts';
import { localFilesWarning, openFileStore } from './infra/open-file-store.ts';
import { DependencyWatch } from './infra/dependency-faults.ts';
import { closeRedis, connectRedis, type WatchedRedis } from './infra/redis.ts';
import { RedisSessionStore } from './infra/redis-session-store.ts';
import { loadSecretBox } from './infra/secret-key.ts';
import { SqlSessionStore } from './infra/sql-session-store.ts';
import type { Access } from './http/caller.ts';
import { callerResolvers, registerModules } from './modules/index.ts';
import { OrderMoveRelay, type Payments } from './modules/pay/orders/index.ts';
import { BackgroundServices, choreFailed } from './http/background-services.ts';
import { startLogRetention } from './db/log-retention.ts';
import { startSqliteOptimizer } from './db/sqlite-optimize.ts';
import { startScheduledBackups } from './infra/scheduled-backup.ts';
import { systemMonitorRoutes, RequestStats, version } from './modules/monitor/server/index.ts';
import { metricsRoutes } from './modules/platform/metrics/index.ts';

export type BuildOptions = {
  /** A database already connected (tests); otherwise DATABASE_URL or SQLite under DATA_DIR. */
  db?: Kysely<Database>;
  /** Key prefix for Redis, so test runs sharing one Redis do not meet. */
  redisPrefix?: string;
  now?: () => number;
  logger?: boolean;
  /** Where the log lines go (tests that read them); stdout otherwise. */
  logStream?: { write: (line: string) => void };
  /** Whether this process resends the simulated payment platform's unacknowledged notifications after it listens (of several server processes, one does). */
  resumesSimulatedPlatform?: boolean;
};

/** The app, its context, and the Payments its payment routes share (tests and benches drive orders through them). */
export type App = { app: FastifyInstance; ctx: AppContext; payments: Payments };

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    trustProxy: config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    // A malformed URL or a path parameter past maxParamLength answers in the envelope like any refusal.
    frameworkErrors: (error, _request, reply) => void (reply as unknown as FastifyReply).status(error.statusCode ?? 400).send(fail(messages.common.badParameter)),
    logController: new OneLineRequestLog(),
    logger: options.logger === false ? false : {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      redact: ['req.headers.token', 'req.headers.authorization', 'req.headers.cookie'],
      serializers: {
        // The token may ride in the query (SPEC §7.1 export links): never let it reach the log.
        req: (req) => ({ method: req.method, url: req.url.replace(/([?&]token=)[^&]*/g, '$1***'), remoteAddress: req.ip }),
      },
    },
  });

  // (after the logger: a lost PostgreSQL or Redis connection is logged once per change, infra/dependency-faults.ts)
  const db = options.db ?? connectDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl, prepared: config.preparedStatements, poolSize: config.poolSize, poolWaitMs: config.poolWaitMs, poolMaxWaiting: config.poolMaxWaiting } : { kind: 'sqlite', file: path.join(config.dataDir, 'huiyun.db') },
    { watch: new DependencyWatch('PostgreSQL', app.log) },
  );
  const redis: WatchedRedis | undefined = config.redisUrl
    ? await connectRedis(config.redisUrl, options.redisPrefix ?? config.redisPrefix, app.log)
    : undefined;

  const redisPair = redis ? { publisher: redis.client, subscriber: redis.subscriber, prefix: redis.prefix } : undefined;
  const ctx: AppContext = {
    config,
    db,
    sessions: redis ? new RedisSessionStore(redis.client, redis.prefix) : new SqlSessionStore(db),
    counters: redis ? new RedisCounterStore(redis.client, redis.prefix) : new MemoryCounterStore(),
    accessCache: new InvalidatedCache<number, Access>('access', { maxAgeMs: CACHE_MAX_AGE_MS, keyOf: Number, redis: redisPair }),
    machineCache: new InvalidatedCache<string, KnownMachine>('machine', { maxAgeMs: CACHE_MAX_AGE_MS, keyOf: String, redis: redisPair }),
    payAccountCache: new InvalidatedCache<number, unknown>('pay-account', { maxAgeMs: CACHE_MAX_AGE_MS, keyOf: Number, redis: redisPair }),
    secrets: loadSecretBox(config, (m) => app.log.warn(m)),
    files: openFileStore(config),
    now: options.now ?? Date.now,
    redisPing: redis?.ping,
  };

  const filesWarning = localFilesWarning(config);
  if (filesWarning) app.log.warn(filesWarning);

  // the long-lived work: started on the app's hooks, stopped before its database closes (http/background-services.ts)
  const services = platformServices(ctx);
  services.attach(app);
  let payments!: Payments;

  const orderMoves = redis ? new OrderMoveRelay(redis) : undefined;
  app.addHook('onClose', async () => {
    orderMoves?.stop();
    if (redis) await closeRedis(redis);
    await db.destroy();
  });

  try {
    await migrateToLatest(db);
    await seed(db, { adminPassword: config.adminPassword, dataDir: config.dataDir, e2eSeed: config.e2eSeed, log: (m) => app.log.warn(m), secrets: ctx.secrets });
    await ctx.accessCache.start();
    await ctx.machineCache.start();
    await ctx.payAccountCache.start();
    await orderMoves?.start();

    registerErrorHandler(app);
    await registerSecurityHeaders(app);
    registerAccessCheck(app, ctx, callerResolvers(ctx));
    registerAudit(app, ctx);
    registerStatementTimeouts(app, config.statementTimeouts);
    await app.register(fastifyFormbody);
    // first: its hook counts the requests of every route (监控查询)
    await app.register(systemMonitorRoutes(ctx, { redis: redis?.client, requests: new RequestStats() }, services));
    await app.register(metricsRoutes(ctx));
    payments = await registerModules(app, ctx, services, { resumesSimulatedPlatform: options.resumesSimulatedPlatform });
    await registerConsole(app, config.webDist);
    await app.ready();
  } catch (error) {
    // the reason in the log, where whoever runs the rollout looks, not only a stack trace on stderr
    if (error instanceof NewerDatabaseError) app.log.fatal({ unknownMigrations: error.unknownMigrations }, error.message);
    await app.close();
    throw error;
  }
  return { app, ctx, payments };
}

/** The platform's own chores; the areas add theirs (the payments service, the upload sweep, 监控查询's figures). */
function platformServices(ctx: AppContext): BackgroundServices {
  const services = new BackgroundServices();
  services.add({
    // in the background once the server answers: the first sweep of a long-unswept log may take a while
    name: 'log retention', startOn: 'listen',
    start: (log) => startLogRetention(ctx.db, {
      days: ctx.config.logRetentionDays,
      onSwept: (deleted) => { if (deleted.sys_oper_log + deleted.sys_login_log > 0) log.info({ deleted }, `log retention: deleted entries older than ${ctx.config.logRetentionDays} days`); },
      onError: choreFailed(log, 'log retention sweep failed'),
    }),
  });
  if (ctx.config.backup.dir) {
    services.add({
      name: 'scheduled backup', startOn: 'listen',
      start: (log) => {
        if (ctx.config.databaseUrl) {
          log.warn('BACKUP_DIR is set but the database is PostgreSQL: no scheduled backup (pg_dump, README "备份与恢复")');
          return { stop: () => {} };
        }
        return startScheduledBackups(ctx.config, version, log);
      },
    });
  }
  services.add({ name: 'SQLite statistics', startOn: 'listen', start: (log) => startSqliteOptimizer(ctx.db, { onError: choreFailed(log, 'SQLite statistics (pragma optimize) failed') }) });
  return services;
}
