import type { FastifyInstance, RouteOptions, preHandlerHookHandler } from 'fastify';
import { withStatementTimeout } from '../db/statement-timeout.ts';
import { answers } from './route-doc.ts';

/** The statement timeouts of the console's reads (0: none). */
export type ConsoleStatementTimeouts = { readMs: number; exportMs: number };

/**
 * A console read — a route a console session calls (access 'login' or a permission) that changes nothing
 * (no `config.audit`: every changing route declares its 操作日志) — runs its statements under
 * `readMs`, an export (an .xlsx sheet, a task's numbers) under `exportMs`; a vending machine's, a device's and a public call run
 * unbounded, as do the background jobs. PostgreSQL only (db/statement-timeout.ts): node:sqlite has no way
 * to stop a statement. Decided once per route, when it is declared: nothing is added to the others.
 */
export function registerStatementTimeouts(app: FastifyInstance, timeouts: ConsoleStatementTimeouts): void {
  app.addHook('onRoute', (route) => {
    const ms = statementTimeoutOf(route, timeouts);
    if (!ms) return;
    // callback style, the route's work runs inside the hook's call (preHandler: after the body is read, whose
    // stream events would lose the asynchronous context)
    const bounded: preHandlerHookHandler = (_request, _reply, done) => withStatementTimeout(ms, () => done());
    route.preHandler = [bounded, ...[route.preHandler ?? []].flat()];
  });
}

export function statementTimeoutOf(route: Pick<RouteOptions, 'config'>, timeouts: ConsoleStatementTimeouts): number {
  const config = route.config as { access?: unknown; audit?: unknown; doc?: { answer?: unknown } } | undefined;
  const access = config?.access;
  const fromConsole = access === 'login' || (typeof access === 'object' && access !== null);
  if (!fromConsole || config?.audit) return 0;
  const answer = config?.doc?.answer;
  return answer === answers.xlsx || answer === answers.numbersText ? timeouts.exportMs : timeouts.readMs;
}
