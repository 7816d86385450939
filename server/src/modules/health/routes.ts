import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';

export function healthRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.get('/healthz', { config: { access: 'public' } }, async (_request, reply) => {
      try {
        await sql`select 1`.execute(ctx.db);
        return { success: true, msg: 'ok', errorInfo: 'ok', data: { database: 'up' } };
      } catch {
        return reply.status(503).send({ success: false, msg: 'database down', errorInfo: 'database down' });
      }
    });
  };
}
