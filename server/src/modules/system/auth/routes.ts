import type { FastifyInstance } from 'fastify';
import { loginRequest, messages, passwordChangeRequest } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { ok } from '../../../http/envelope.ts';
import { extractToken } from '../../../http/token.ts';
import { parse } from '../../../http/validate.ts';
import { loadProfile } from './profile.ts';
import { changeOwnPassword, describeCaller, login, logout } from './service.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

export function authRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post('/sync/login', { config: { access: 'public', doc: { tag: 'auth', body: loginRequest, answer: answers.data(r.loginAnswer), refuses: [429] } } }, async (request) => {
      const input = parse(loginRequest, request.body);
      const answer = await login(ctx, input, { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' });
      return ok(messages.login.success, answer);
    });

    app.post('/sync/logout', { config: { access: 'public', doc: { tag: 'auth', answer: answers.message } } }, async (request) => {
      await logout(ctx, extractToken(request));
      return ok(messages.login.loggedOut);
    });

    app.get('/sync/currentUser', { config: { access: 'login', doc: { tag: 'auth', answer: answers.data(r.currentUser) } } }, async (request) => ok('', describeCaller(callerOf(request))));

    app.get('/sync/profile', { config: { access: 'login', doc: { tag: 'auth', answer: answers.data(r.userProfile) } } }, async (request) => ok('', await loadProfile(ctx, callerOf(request))));

    app.post('/sync/update/password', { config: { access: 'login', doc: { tag: 'auth', body: passwordChangeRequest, answer: answers.message } } }, async (request) => {
      const input = parse(passwordChangeRequest, request.body);
      await changeOwnPassword(ctx, callerOf(request), request.sessionTokenHash!, input);
      return ok(messages.password.saved);
    });
  };
}
