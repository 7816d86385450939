import cluster from 'node:cluster';
import { restartBudget } from './infra/restart-budget.ts';
import { serveGatherings } from './infra/cluster-gather.ts';
import { ConfigError, loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { countInFlight, drain } from './http/drain.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (config.workers > 1 && cluster.isPrimary) return runWorkers(config.workers);
  // of several server processes, one resends the simulated payment platform's unacknowledged notifications: the first, and whichever replaces it
  const { app } = await buildApp(config, { resumesSimulatedPlatform: !cluster.isWorker || process.env[STARTER_ENV] === '1' });
  const inFlight = countInFlight(app);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return; // (a terminal's Ctrl-C reaches a cluster's processes twice: from the terminal and from the primary)
    closing = true;
    app.log.info(`${signal}: shutting down`);
    await drain(app, inFlight, { graceMs: config.shutdownGraceMs, noticeMs: config.shutdownNoticeMs }); // /healthz 503, no new connections, requests in flight finish
    await app.close(); // the background services stop first (http/background-services.ts), then the connections and the database
    process.exit(0);
  };
  // A promise nobody awaited that fails (a dependency away under a fire-and-forget call) is logged; the
  // process goes on serving (a database restart must not end it).
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled rejection'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  // listening starts the background services (the order sweeper, 对账, the folds, log retention)
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`汇云运营台 listening on http://${config.host}:${config.port} (database: ${config.databaseUrl ? 'PostgreSQL' : 'SQLite'}, sessions: ${config.redisUrl ? 'Redis' : 'database'})`);
}

/**
 * SERVER_WORKERS > 1 (PostgreSQL + Redis, checked by config.ts): this process only starts that many
 * server processes on the one port (node:cluster hands each new connection to one of them) and
 * replaces one that ends. The first migrates and seeds the database; the others start once it
 * listens. Each is a whole instance (its own pool of DATABASE_POOL_SIZE connections, its sweepers —
 * they take rows by lease), as instances behind a load balancer are.
 */
const STARTER_ENV = 'HUIYUN_RESUMES_SIMULATED_PLATFORM';

function runWorkers(count: number): void {
  let stopping = false;
  let ready = false;
  const restarts = restartBudget();
  serveGatherings(); // one /metrics scrape, one 监控查询 snapshot covers every process (infra/cluster-gather.ts)
  // One process resends the simulated payment platform's notifications (main above): the first, and whichever replaces it.
  const starter = { [STARTER_ENV]: '1' };
  let starterId = cluster.fork(starter).id;
  const first = cluster.workers![starterId]!;
  first.once('listening', () => {
    ready = true;
    for (let i = 1; i < count; i++) cluster.fork();
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    // one that cannot start (configuration, database) would only fail again: stop with it
    if (!ready) process.exit(code || 1);
    if (!restarts.allow(Date.now())) {
      console.error(`server process ${worker.process.pid} ended (${signal ?? code}): too many restarts in a minute, stopping`);
      stop();
      process.exitCode = 1;
      return;
    }
    console.error(`server process ${worker.process.pid} ended (${signal ?? code}); starting another`);
    const replacement = cluster.fork(worker.id === starterId ? starter : {});
    if (worker.id === starterId) starterId = replacement.id;
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
