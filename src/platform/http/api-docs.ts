/**
 * The API reference at /docs: Swagger UI (swagger-ui-dist, served from node_modules, so it works
 * offline) reading /openapi.json. The page and its start script are fixed text with nothing filled
 * in, and the page runs no inline script, so its CSP allows scripts from this origin only.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { type Router } from 'express';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>IVR gateway API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
`;

const START = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    tryItOutEnabled: false,
    presets: [SwaggerUIBundle.presets.apis],
  });
});
`;

/** Swagger UI needs inline styles and data: images; scripts come from this origin only. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']);

export function apiDocs(): Router {
  const assetDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const router = express.Router({ strict: true });
  router.use('/docs', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });
  router.get('/docs', (_req, res) => res.redirect(301, '/docs/'));
  router.get('/docs/', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/docs/start.js', (_req, res) => {
    res.type('text/javascript').send(START);
  });
  router.get('/docs/assets/:file', (req, res, next) => {
    const file = req.params.file;
    if (!ASSETS.has(file)) return next();
    res.sendFile(file, { root: assetDir, maxAge: '1d' });
  });
  return router;
}
