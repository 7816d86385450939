import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { version } from '../../monitor/server/index.ts';
import { openApiDocument } from './openapi.ts';

// /api-docs: the API's OpenAPI document and a viewer for it (Swagger UI from swagger-ui-dist, served
// from this server: the machines reach no CDN). The page and the viewer's files hold nothing of the
// API and are open to anyone; the document itself answers only a logged-in console account (an
// operator need not publish the list of its API), the viewer sending the console's stored session.

const DOCS = '/api-docs';
const swaggerUiRoot = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="zh-CN">
<head><meta charset="utf-8"><title>汇云运营台 API</title><link rel="stylesheet" href="${DOCS}/ui/swagger-ui.css"></head>
<body><p id="login-first" hidden>请先在本浏览器登录运营台，再打开本页。</p><div id="docs"></div>
<script src="${DOCS}/ui/swagger-ui-bundle.js"></script><script src="${DOCS}/viewer.js"></script></body>
</html>`;

// No inline script: the page keeps the console's Content-Security-Policy (script-src 'self').
const viewer = `(function () {
  var token = localStorage.getItem('logintoken') || sessionStorage.getItem('logintoken');
  if (!token) { document.getElementById('login-first').hidden = false; return; }
  SwaggerUIBundle({
    url: '${DOCS}/openapi.json',
    dom_id: '#docs',
    filter: true,
    requestInterceptor: function (request) { request.headers.token = token; return request; },
  });
})();`;

export function apiDocsRoutes(_ctx: AppContext) {
  return async (app: FastifyInstance) => {
    let document: Record<string, unknown> | undefined;
    // Built on the first request: every route is declared by then.
    app.get(`${DOCS}/openapi.json`, { config: { access: 'login' } }, async () => (document ??= openApiDocument(app.declaredRoutes, version)));
    app.get(DOCS, async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
    app.get(`${DOCS}/viewer.js`, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(viewer));
    await app.register(fastifyStatic, {
      root: swaggerUiRoot,
      prefix: `${DOCS}/ui/`,
      decorateReply: false,
      allowedPath: (pathName) => pathName === '/swagger-ui.css' || pathName === '/swagger-ui-bundle.js',
    });
  };
}
