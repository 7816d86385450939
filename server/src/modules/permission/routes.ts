import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

// Placeholder: the routes of this area are being written (issue 3).
export function permissionRoutes(_ctx: AppContext) {
  return async (_app: FastifyInstance) => {};
}
