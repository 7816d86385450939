import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { fill, messages, Perm } from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { describeTarget } from '../../http/audit.ts';
import { parse } from '../../http/validate.ts';
import { forceOffline, refreshAccessCache } from './sessions.ts';

const userNameParams = z.object({ userName: z.string({ error: messages.user.notFound }).trim().min(1, messages.user.notFound) });

export function userRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.get('/api/User/expireToken/:userName', { config: { access: { permission: Perm.userExpireToken }, audit: { module: messages.user.title, action: messages.common.actionForceOffline } } }, async (request) => {
      const { userName } = parse(userNameParams, request.params);
      describeTarget(request, userName);
      await forceOffline(ctx, userName);
      return ok(fill(messages.user.forceOfflineOk, { userName }));
    });

    app.get('/api/User/flashCache/:userName', { config: { access: { permission: Perm.userFlashCache }, audit: { module: messages.user.title, action: messages.common.actionRefreshCache } } }, async (request) => {
      const { userName } = parse(userNameParams, request.params);
      describeTarget(request, userName);
      await refreshAccessCache(ctx, userName);
      return ok(messages.user.flashCacheOk);
    });
  };
}
