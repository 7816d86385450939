import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { formatDateTime, Perm, type SystemSnapshot } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { BackgroundServices } from '../../../http/background-services.ts';
import { ok } from '../../../http/envelope.ts';
import { BusinessStats } from './business-stats.ts';
import { databaseStats } from './database-stats.ts';
import { clusterGathering } from '../../../infra/cluster-gather.ts';
import { lastJobRuns } from '../../../db/job-runs.ts';
import { jobRunView } from './job-run-view.ts';
import { ProcessStats, version } from './process-stats.ts';
import { recordRequests, routeStats, type RequestStats } from './request-stats.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

/** Redis's clients and memory, from INFO. */
async function redisStats(redis: Redis): Promise<SystemSnapshot['redis']> {
  const info = await redis.info();
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return { clients: field('connected_clients'), usedMemory: field('used_memory') };
}

export type MonitorSources = { redis?: Redis; requests: RequestStats };

// 监控查询 (/druid/login): the super administrator's (its code is granted to no role). One snapshot
// of the server processes, the database, Redis, the business and the background jobs' last runs, polled by the
// screen every few seconds.
export function systemMonitorRoutes(ctx: AppContext, sources: MonitorSources, services: BackgroundServices) {
  const plugin = async (app: FastifyInstance) => {
    recordRequests(app, sources.requests);
    const processStats = new ProcessStats(app);
    // every server process's figures (SERVER_WORKERS), whichever process the screen's request reaches
    const processes = clusterGathering('process', () => processStats.figures());
    const requestWindows = clusterGathering('requests', async () => sources.requests.window());
    const business = new BusinessStats(ctx.db, ctx.now);
    services.add({ name: '监控查询 business figures', startOn: 'ready', start: () => { business.start(); return { stop: () => business.stop() }; } });
    app.addHook('onClose', async () => {
      processes.stop();
      requestWindows.stop();
      processStats.stop();
    });

    app.get('/api/SystemMonitor/snapshot', { config: { access: { permission: Perm.systemMonitorView }, doc: { tag: 'system-monitor', answer: answers.data(r.systemSnapshot) } } }, async () => {
      const [all, windows, database, redis, businessNow, jobs] = await Promise.all([
        processes.all(), requestWindows.all(), databaseStats(ctx.db, ctx.config), sources.redis ? redisStats(sources.redis) : null, business.snapshot(), lastJobRuns(ctx.db),
      ]);
      all.sort((a, b) => a.pid - b.pid);
      const own = all.find((p) => p.pid === process.pid) ?? await processStats.figures();
      const server = { version, node: process.version, workers: ctx.config.workers, ...own, processes: all };
      const snapshot: SystemSnapshot = {
        time: formatDateTime(ctx.now()), server, requests: routeStats(windows), database, redis, business: { ...businessNow, jobs: jobs.map(jobRunView) },
      };
      return ok('', snapshot);
    });
  };
  // its onResponse hook counts every route of the app, not only its own (what fastify-plugin does)
  (plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
  return plugin;
}
