import type { FastifyInstance, FastifyRequest } from 'fastify';
import { messages, TERMINAL_PREFIX, terminalCreateOrderSchema, terminalDispenseSchema, terminalHeartbeatSchema, terminalOrderStatusSchema } from '@huiyun/contract';
import type { AppContext, KnownMachine } from '../../../context.ts';
import { ok } from '../../../http/envelope.ts';
import { AppError, unauthorized } from '../../../http/errors.ts';
import { parse } from '../../../http/validate.ts';
import { orderStatus, type Payments } from '../orders/index.ts';
import { heartbeat } from './heartbeat.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const t = messages.terminal;

/**
 * Keeps the raw body of a JSON request (the terminal signature and gateway notifications are computed
 * over the exact bytes), then parses it. Only inside the plugin that registers it.
 */
export function keepRawJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const raw = String(body);
    request.rawBody = raw;
    if (raw.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(raw));
    } catch {
      done(new AppError(t.badJson, 400), undefined);
    }
  });
}

const machineOf = (request: FastifyRequest): KnownMachine => {
  if (!request.terminal) throw unauthorized(t.unsigned);
  return request.terminal;
};

export const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

// The terminal protocol (docs/terminal-protocol.md) under /terminal/v1: every call is signed by the
// machine (access 'terminal', checked in terminal/auth.ts). Machine traffic, not in the operation log.
export function terminalRoutes(ctx: AppContext, payments: Payments) {
  return async (app: FastifyInstance) => {
    // The signature covers the bytes received, which only the JSON parser keeps: any other body (a form the
    // app-wide parser would read, text, …) is refused with 415 before routing, so none is ever checked
    // against an empty body.
    app.removeAllContentTypeParsers();
    keepRawJsonBody(app);
    const access = { access: 'terminal' as const };
    app.post(`${TERMINAL_PREFIX}/order/create`, { config: { ...access, doc: { tag: 'terminal', body: terminalCreateOrderSchema, answer: answers.data(r.terminalOrderCreated), refuses: [409, 502] } } }, async (request) =>
      ok('', await payments.createOrder(machineOf(request), parse(terminalCreateOrderSchema, request.body), originOf(request), request.log)),
    );
    app.post(`${TERMINAL_PREFIX}/order/status`, { config: { ...access, doc: { tag: 'terminal', body: terminalOrderStatusSchema, answer: answers.data(r.terminalOrderStatus), refuses: [404] } } }, async (request, reply) => {
      const input = parse(terminalOrderStatusSchema, request.body);
      // the machine hung up: stop waiting (the response's 'close' comes only then, before it is sent)
      let closed = false;
      reply.raw.once('close', () => void (closed = true));
      return ok('', await orderStatus(ctx, machineOf(request), input.orderNo, input.knownStatus, input.waitSeconds ?? 0, () => closed));
    });
    app.post(`${TERMINAL_PREFIX}/order/dispense`, { config: { ...access, doc: { tag: 'terminal', body: terminalDispenseSchema, answer: answers.data(r.terminalOrderStatus), refuses: [404, 409] } } }, async (request) =>
      ok('', await payments.reportDispense(machineOf(request), parse(terminalDispenseSchema, request.body), request.log)),
    );
    app.post(`${TERMINAL_PREFIX}/heartbeat`, { config: { ...access, doc: { tag: 'terminal', body: terminalHeartbeatSchema, answer: answers.data(r.terminalHeartbeatAnswer) } } }, async (request) =>
      ok('', await heartbeat(ctx, machineOf(request), parse(terminalHeartbeatSchema, request.body).aisles)),
    );
  };
}
