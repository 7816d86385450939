import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** What is stored of a session or device token: its SHA-256, never the token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The session token, from the `token` header, `Authorization: Bearer`, the query or the body (PRODUCT §2). */
export function extractToken(request: FastifyRequest): string | undefined {
  const header = request.headers.token;
  if (typeof header === 'string' && header) return header;
  const authorization = request.headers.authorization;
  if (authorization?.startsWith('Bearer ')) return authorization.slice(7).trim() || undefined;
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.token;
  if (typeof fromQuery === 'string' && fromQuery) return fromQuery;
  const body = request.body;
  if (body && typeof body === 'object' && typeof (body as Record<string, unknown>).token === 'string') {
    return ((body as Record<string, unknown>).token as string) || undefined;
  }
  return undefined;
}

/**
 * A device token: only from `Authorization: Bearer` (docs/device-protocol.md). Never from the query,
 * where it would be written to access logs, proxies and browser history, nor the body or `token` header.
 */
export function extractDeviceToken(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  return authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() || undefined : undefined;
}
