import type { FastifyError, FastifyInstance } from 'fastify';
import { messages } from '@huiyun/contract';
import { isStatementTimeout } from '../db/statement-timeout.ts';
import { unavailableDependency } from '../infra/dependency-faults.ts';
import { AppError } from './errors.ts';
import { fail } from './envelope.ts';

const API_PREFIXES = ['/api/', '/sync/', '/upload/', '/download/', '/device/', '/healthz', '/livez', '/terminal/', '/gateway/'];
export const isApiPath = (url: string) => API_PREFIXES.some((p) => url.startsWith(p));

// The one error handler: refusals answer their own message; Fastify's request errors (bad JSON, wrong
// content type, too large) answer a Chinese text; anything unexpected is logged with its stack and
// answered with a generic text, never the stack. A dependency away (PostgreSQL, Redis, SQLite busy or
// full, PostgreSQL's pool busy: infra/dependency-faults.ts) answers 503 with its message; the log has its
// state changes. A console read cancelled by its statement timeout (http/statement-timeouts.ts) answers 503 too.
const unavailableText = {
  database: messages.common.databaseUnavailable,
  redis: messages.common.redisUnavailable,
  fileStore: messages.common.fileStoreUnavailable,
} as const;

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(fail(error.message));
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status < 500) {
      const text =
        status === 413 ? messages.common.bodyTooLarge
        : status === 415 ? messages.common.unsupportedMediaType
        : status === 429 ? messages.common.tooManyRequests
        : messages.common.badRequestBody;
      request.log.info({ code: (error as FastifyError).code, message: error.message }, 'request refused');
      return reply.status(status).send(fail(text));
    }
    if (isStatementTimeout(error)) {
      request.log.warn({ url: request.url.split('?')[0], message: error.message }, 'statement timeout');
      return reply.status(503).send(fail(messages.common.queryTimedOut));
    }
    const away = unavailableDependency(error);
    if (away) {
      request.log.info({ dependency: away, message: error.message }, 'dependency unavailable');
      return reply.status(503).send(fail(unavailableText[away]));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send(fail(messages.common.serverBusy));
  });
}
