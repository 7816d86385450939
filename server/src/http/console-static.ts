import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { messages } from '@huiyun/contract';
import { fail } from './envelope.ts';
import { isApiPath } from './error-handler.ts';

/**
 * /assets/: Vite puts a content hash in every name, so a file never changes (cached a year). The build
 * writes .br and .gz beside each (web/build/precompress.ts): sent as they are. A script or a stylesheet is
 * never a document: its route skips the page policies (helmet: CSP, frame, referrer… ~1 KB on each of the
 * ~40 files of a cold load) and carries only the two headers a subresource reads.
 */
async function hashedAssets(app: FastifyInstance, options: { root: string }) {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, helmet: { skipRoute: true } } as typeof route.config;
  });
  await app.register(fastifyStatic, {
    root: options.root,
    prefix: '/assets/',
    decorateReply: false,
    preCompressed: true,
    setHeaders: (reply) => {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cross-origin-resource-policy', 'same-origin');
    },
  });
}

// Same origin: the server hands out the built console and, for any other browser path, its
// index.html so the client router can show the screen (or its own 404 page).
export async function registerConsole(app: FastifyInstance, webDist: string): Promise<void> {
  const built = fs.existsSync(path.join(webDist, 'index.html'));
  if (built) {
    await app.register(hashedAssets, { root: path.join(webDist, 'assets') });
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      wildcard: true,
      preCompressed: true,
      // index.html (and the few unhashed files beside it) may change with any deploy.
      setHeaders: (reply) => reply.header('cache-control', 'no-cache'),
    });
    // The static handler refuses the bare directory '/' (index: false); the console's own router decides.
    app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
    // Browsers and tools still ask for /favicon.ico: answer with the console's SVG icon.
    app.get('/favicon.ico', (_request, reply) => reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').sendFile('favicon.svg'));
  }

  app.setNotFoundHandler((request, reply) => {
    // HEAD is a GET without the body (link checkers, monitors): the same page, not a 404.
    if (isApiPath(request.url) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send(fail(messages.common.notFoundApi));
    }
    // A missing file (a stale /assets/x.js after a deploy) must not come back as the HTML page.
    if (/\.[A-Za-z0-9]{1,8}$/.test(request.url.split('?')[0])) {
      return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    }
    if (!built) {
      return reply.status(503).type('text/plain; charset=utf-8').send('控制台尚未构建：请运行 npm run build（npm start 会自动构建）');
    }
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
