import type { FastifyInstance } from 'fastify';

// How the simulated platform's notifications reach the merchant: by HTTP (a platform made without this server's
// routes), or, once its routes are registered, through this server itself (app.inject: the same routes and hooks).

/** Sends one notification; true when the merchant acknowledged it. */
export type Deliver = (url: string, body: string, headers: Record<string, string>) => Promise<boolean>;

export const fetchDeliver: Deliver = async (url, body, headers) => {
  const answer = await fetch(url, { method: 'POST', body, headers });
  return answer.ok && ((await answer.json()) as { code?: string }).code === 'SUCCESS';
};

export const injectDeliver = (app: FastifyInstance): Deliver => async (url, body, headers) => {
  const answer = await app.inject({ method: 'POST', url: new URL(url).pathname, headers, payload: body });
  try {
    return answer.statusCode === 200 && (answer.json() as { code?: string }).code === 'SUCCESS';
  } catch {
    return false;
  }
};
