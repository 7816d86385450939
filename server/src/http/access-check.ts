import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PermissionCode } from '@huiyun/contract';
import { messages } from '@huiyun/contract';
import type { AppContext } from '../context.ts';
import type { Access } from './caller.ts';
import { forbidden, unauthorized } from './errors.ts';
import { isApiPath } from './error-handler.ts';
import type { RouteDoc } from './route-doc.ts';
import { extractDeviceToken, extractToken, hashToken } from './token.ts';

/**
 * What a route needs, declared on the route itself (`config: { access }`):
 * - 'public': anyone (login, health);
 * - 'login': any logged-in account;
 * - { permission }: a logged-in account whose role holds that code (权限管理), checked here only;
 * - { anyOf }: one of several codes (a helper list two screens read, e.g. the company choices);
 * - 'device': a sending device with its own token (docs/device-protocol.md), never a console session;
 * - 'terminal': a vending machine signing each call with its terminal key (docs/terminal-protocol.md).
 */
export type RouteAccess = 'public' | 'login' | 'device' | 'terminal' | { permission: PermissionCode } | { anyOf: PermissionCode[] };

/** The codes any one of which opens the route (none for 'public' / 'login'). */
export function requiredCodes(access: RouteAccess): PermissionCode[] {
  if (typeof access === 'string') return [];
  return 'anyOf' in access ? access.anyOf : [access.permission];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** A device route that checks the device's token and owner again in its own first statement. */
    deviceTokenRechecked?: boolean;
  }
  interface FastifyRequest {
    access?: Access;
    sessionTokenHash?: string;
  }
  interface FastifyInstance {
    /** Every API route, what it needs and what it reads and answers: the table the authorization tests walk and the API document is made of. */
    declaredRoutes: DeclaredRoute[];
  }
}

export type DeclaredRoute = { method: string; url: string; access: RouteAccess; doc?: RouteDoc };

/** The route's doc for one of its methods: a route taking GET and POST reads on GET from the query string what POST reads from the body. */
function docFor(method: string, doc: RouteDoc | undefined): RouteDoc | undefined {
  if (!doc || method !== 'GET' || !doc.body) return doc;
  const { body, ...rest } = doc;
  return { ...rest, query: body };
}

/** The logged-in caller; only call it in a route that declared 'login' or a permission. */
export function callerOf(request: FastifyRequest): Access {
  if (!request.access) throw unauthorized(messages.common.loginRequired);
  return request.access;
}

/**
 * What the access check asks of the modules (given by modules/index.ts, so this layer imports none):
 * the caller of a session's account (undefined when it is gone), and the device of a device token (set
 * on the request, or thrown as 401; `rechecked`: the route checks the token again itself).
 */
export type CallerResolvers = {
  loadAccess: (userId: number) => Promise<Access | undefined>;
  authenticateDevice: (request: FastifyRequest, token: string | undefined, rechecked: boolean) => Promise<void>;
  /** Checks a terminal call's signature, timestamp and nonce; sets request.terminal or throws 401. */
  authenticateTerminal?: (request: FastifyRequest) => Promise<void>;
};

export function registerAccessCheck(app: FastifyInstance, ctx: AppContext, resolvers: CallerResolvers): void {
  // A route under an API prefix that forgets to say who may call it fails the start, not production.
  const declaredRoutes: DeclaredRoute[] = [];
  app.decorate('declaredRoutes', declaredRoutes);
  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url)) return;
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.access`);
    for (const method of [route.method].flat()) if (method !== 'HEAD') declaredRoutes.push({ method, url: route.url, access, doc: docFor(method, route.config?.doc) });
  });

  app.addHook('preHandler', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public') return;
    if (access === 'device') {
      await resolvers.authenticateDevice(request, extractDeviceToken(request), request.routeOptions.config.deviceTokenRechecked === true);
      return;
    }
    if (access === 'terminal') {
      if (!resolvers.authenticateTerminal) throw unauthorized(messages.terminal.unsigned);
      await resolvers.authenticateTerminal(request);
      return;
    }
    const token = extractToken(request);
    if (!token) throw unauthorized(messages.common.loginRequired);
    const tokenHash = hashToken(token);
    const now = ctx.now();
    const session = await ctx.sessions.resume(tokenHash, now);
    if (!session) throw unauthorized();
    const caller = await ctx.accessCache.get(session.userId, now, () => resolvers.loadAccess(session.userId));
    if (!caller || caller.isLocked) {
      await ctx.sessions.revoke(tokenHash);
      throw unauthorized(caller?.isLocked ? messages.login.locked : messages.common.sessionExpired);
    }
    request.access = caller;
    request.sessionTokenHash = tokenHash;
    const codes = requiredCodes(access);
    if (codes.length > 0 && !codes.some((code) => caller.permissions.has(code))) throw forbidden();
  });
}
