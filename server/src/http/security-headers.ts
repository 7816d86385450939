import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { isApiPath } from './error-handler.ts';

/**
 * What the built console may load. Scripts, styles, fonts and data only from its own
 * origin; styles also inline, because antd's CSS-in-JS writes <style> elements at run time; images
 * also as data: (antd's icons, empty-state pictures) and blob: (previews, QR images, charts saved as
 * pictures); workers from blob: (chart and file libraries start them so). Nothing may frame it.
 */
export const consoleCsp = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // The console is often served over plain HTTP inside a company network: upgrading its requests
  // to https would break it there. HTTPS deployments add HSTS at their TLS proxy.
  upgradeInsecureRequests: null,
};


/** helmet's settings: the policies above, framing denied, no HSTS (left to an HTTPS proxy). */
export const helmetOptions: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: consoleCsp },
  frameguard: { action: 'deny' },
  strictTransportSecurity: false,
};

export type SecurityHeaderSet = { set: [name: string, value: string][]; remove: string[] };

/**
 * What helmet writes on an answer: the same on every one (no directive depends on the request), so
 * it is computed once, by running helmet's middleware against a response that only records.
 * (@fastify/helmet built helmet's middleware again for every answer — parsing the CSP each time was
 * ~4 % of a terminal call's CPU, docs/performance.md "Terminal flow".)
 */
export function securityHeaderSet(options: HelmetOptions = helmetOptions): SecurityHeaderSet {
  const headers: SecurityHeaderSet = { set: [], remove: [] };
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      if (typeof value !== 'string') throw new Error(`security headers: ${name} is not one string`);
      headers.set.push([name, value]);
      return recorder;
    },
    removeHeader: (name: string) => void headers.remove.push(name),
  };
  let called = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    called = true;
  });
  if (!called) throw new Error('security headers: helmet did not finish at once');
  return headers;
}

/**
 * Security headers on every answer (helmet: CSP, X-Frame-Options DENY, nosniff, Referrer-Policy,
 * cross-origin policies), and one rule for caching: an API answer (tokens, personal data, exports)
 * is never stored by a browser or proxy. The console's files keep their own cache headers
 * (console-static.ts: hashed assets immutable, index.html no-cache); the hashed assets' route skips
 * helmet (route config `helmet: { skipRoute: true }`) and sets the two headers a script or style reads
 * (nosniff, cross-origin resource policy).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const { set, remove } = securityHeaderSet();
  app.addHook('onRequest', (request, reply, done) => {
    if ((request.routeOptions.config as { helmet?: { skipRoute?: boolean } }).helmet?.skipRoute !== true) {
      const raw = reply.raw;
      for (const [name, value] of set) raw.setHeader(name, value);
      for (const name of remove) raw.removeHeader(name);
    }
    done();
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isApiPath(request.url)) return payload;
    const cacheControl = String(reply.getHeader('cache-control') ?? '');
    if (!cacheControl.includes('no-store')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
