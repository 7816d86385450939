import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LogResult } from '@huiyun/contract';
import type { AppContext } from '../context.ts';

/**
 * 操作日志: a route that changes something declares `config: { audit: { module, action } }` and may
 * name what it changed with `describeTarget(request, '…')`. One hook writes who, what, target, IP,
 * time and result. Bodies are never logged, so passwords and secrets are not.
 */
export type RouteAudit = { module: string; action: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: RouteAudit;
  }
  interface FastifyRequest {
    auditTarget?: string;
  }
  interface FastifyInstance {
    /** The modules the routes' audit configs name (操作日志 offers operLogModules: a test keeps them in step). */
    auditedModules: Set<string>;
  }
}

export function describeTarget(request: FastifyRequest, target: string): void {
  request.auditTarget = target.slice(0, 500);
}

// Written before the answer leaves (onSend), so an entry exists by the time the client sees the result
// and a crash right after a change cannot lose its entry; the cost is one insert on changing calls only.
export function registerAudit(app: FastifyInstance, ctx: AppContext): void {
  const auditedModules = new Set<string>();
  app.decorate('auditedModules', auditedModules);
  app.addHook('onRoute', (route) => {
    if (route.config?.audit) auditedModules.add(route.config.audit.module);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const audit = request.routeOptions.config.audit;
    if (!audit) return payload;
    const caller = request.access;
    try {
      await ctx.db
        .insertInto('sys_oper_log')
        .values({
          userId: caller?.userId ?? null,
          userName: caller?.userName ?? '',
          deptId: caller?.deptId ?? null,
          module: audit.module,
          action: audit.action,
          target: request.auditTarget ?? '',
          method: request.method,
          url: request.url.split('?')[0].slice(0, 255),
          ip: request.ip.slice(0, 64),
          success: reply.statusCode < 400 ? LogResult.success : LogResult.failure,
          message: envelopeMessage(payload).slice(0, 500),
          costMs: Math.round(reply.elapsedTime),
          operTime: ctx.now(),
        })
        .execute();
    } catch (error) {
      request.log.error({ err: error }, 'could not write the operation log');
    }
    return payload;
  });
}

/** The msg of a JSON envelope answer; '' for anything else (a file, a stream). */
function envelopeMessage(payload: unknown): string {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return '';
  try {
    return String((JSON.parse(payload) as { msg?: unknown }).msg ?? '');
  } catch {
    return '';
  }
}
