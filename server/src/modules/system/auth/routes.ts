import type { FastifyInstance } from 'fastify';
import { loginRequest, messages, passwordChangeRequest } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { ok } from '../../../http/envelope.ts';
import { extractToken } from '../../../http/token.ts';
import { parse } from '../../../http/validate.ts';
import { loadProfile } from './profile.ts';
import { changeOwnPassword, describeCaller, login, logout } from './service.ts';

export function authRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post('/sync/login', { config: { access: 'public' } }, async (request) => {
      const input = parse(loginRequest, request.body);
      const answer = await login(ctx, input, { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' });
      return ok(messages.login.success, answer);
    });

    app.post('/sync/logout', { config: { access: 'public' } }, async (request) => {
      await logout(ctx, extractToken(request));
      return ok(messages.login.loggedOut);
    });

    app.get('/sync/currentUser', { config: { access: 'login' } }, async (request) => ok('', describeCaller(callerOf(request))));

    app.get('/sync/profile', { config: { access: 'login' } }, async (request) => ok('', await loadProfile(ctx, callerOf(request))));

    app.post('/sync/update/password', { config: { access: 'login' } }, async (request) => {
      const input = parse(passwordChangeRequest, request.body);
      await changeOwnPassword(ctx, callerOf(request), request.sessionTokenHash!, input);
      return ok(messages.password.saved);
    });
  };
}
