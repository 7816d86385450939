import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { isApiPath } from './error-handler.ts';

/**
 * What the built console may load (issue 12 D7). Scripts, styles, fonts and data only from its own
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


/**
 * Security headers on every answer (helmet: CSP, X-Frame-Options DENY, nosniff, Referrer-Policy,
 * cross-origin policies), and one rule for caching: an API answer (tokens, personal data, exports)
 * is never stored by a browser or proxy. The console's files keep their own cache headers
 * (console-static.ts: hashed assets immutable, index.html no-cache); the hashed assets' route skips
 * helmet and sets the two headers a script or style reads (nosniff, cross-origin resource policy).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: consoleCsp },
    frameguard: { action: 'deny' },
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isApiPath(request.url)) return payload;
    const cacheControl = String(reply.getHeader('cache-control') ?? '');
    if (!cacheControl.includes('no-store')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
