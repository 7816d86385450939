import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../../../context.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';
import { draining } from '../../../http/drain.ts';

/** A dependency that has not answered within this is down for the health check. */
const CHECK_TIMEOUT_MS = 2_000;

const within = (check: Promise<unknown>) => new Promise<'up' | 'down'>((resolve) => {
  const timer = setTimeout(() => resolve('down'), CHECK_TIMEOUT_MS);
  check.then(() => resolve('up'), () => resolve('down')).finally(() => clearTimeout(timer));
});

/**
 * Two probes (README 健康检查): `/healthz` — readiness, for a load balancer — asks each dependency (the
 * database; Redis when configured) and answers 503 when one is down, because console requests cannot be
 * served then; `/livez` — liveness, for an orchestrator — answers 200 while the process answers at all,
 * so a database blip takes the instance out of rotation without restarting it. A draining instance
 * (SIGTERM, http/drain.ts) answers /healthz 503 from the drain's start.
 */
export function healthRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.get('/healthz', { config: { access: 'public', doc: { tag: 'health', answer: answers.data(r.readiness), refuses: [503] } } }, async (_request, reply) => {
      // a stopping instance (SIGTERM, http/drain.ts): out of the load balancer's rotation at once
      if (draining()) return reply.status(503).send({ success: false, msg: 'draining', errorInfo: 'draining', data: { draining: true } });
      const [database, redis] = await Promise.all([
        within(sql`select 1`.execute(ctx.db)),
        ctx.redisPing ? within(ctx.redisPing()) : undefined,
      ]);
      const data = { database, ...(redis ? { redis } : {}) };
      if (database === 'up' && redis !== 'down') return { success: true, msg: 'ok', errorInfo: 'ok', data };
      const down = Object.entries(data).filter(([, state]) => state === 'down').map(([name]) => name).join(', ');
      return reply.status(503).send({ success: false, msg: `${down} down`, errorInfo: `${down} down`, data });
    });
    app.get('/livez', { config: { access: 'public', doc: { tag: 'health', answer: answers.data(r.liveness), live: true } } }, async () => ({ success: true, msg: 'ok', errorInfo: 'ok', data: { uptimeSeconds: Math.floor(process.uptime()) } }));
  };
}
