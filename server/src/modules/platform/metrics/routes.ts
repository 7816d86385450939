import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { notFound } from '../../../http/errors.ts';
import { createMetrics } from './registry.ts';

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

// GET /metrics: Prometheus text format, off (404) unless METRICS_TOKEN is set, then only with
// `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise). With SERVER_WORKERS, every process's figures (registry.ts).
export function metricsRoutes(ctx: AppContext) {
  const plugin = async (app: FastifyInstance) => {
    const token = ctx.config.metricsToken;
    if (!token) {
      // declared all the same, so that it answers 404 rather than the console's page
      app.get('/metrics', { config: { access: 'public' } }, async () => {
        throw notFound();
      });
      return;
    }
    const metrics = createMetrics(ctx.db, ctx.config, ctx.now);
    app.addHook('onClose', async () => metrics.stop());
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? '(unmatched)';
      metrics.requests.observe({ method: request.method, route, status: `${Math.floor(reply.statusCode / 100)}xx` }, reply.elapsedTime / 1000);
    });
    // public to the session check: the bearer token is this route's own (not a console session)
    app.get('/metrics', { config: { access: 'public' }, logLevel: 'warn' }, async (request, reply) => {
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!sameToken(bearer, token)) return reply.status(401).header('www-authenticate', 'Bearer').send('unauthorized\n');
      return reply.type(metrics.contentType).send(await metrics.text());
    });
  };
  // its onResponse hook times every route of the app (what fastify-plugin does)
  (plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
  return plugin;
}
