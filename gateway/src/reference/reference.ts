import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { Router } from 'express';

const require = createRequire(import.meta.url);
const REDOC_BUNDLES = join(dirname(require.resolve('redoc/package.json')), 'bundles');

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Hireloop API reference</title>
  <style>body { margin: 0; }</style>
</head>
<body>
  <redoc spec-url="/api/v1/openapi.json" hide-download-button="false" required-props-first="true"></redoc>
  <script src="/developers/assets/redoc.standalone.js"></script>
</body>
</html>`;

/**
 * /developers/reference: the OpenAPI document rendered with Redoc, every asset served from here
 * (no CDN, no font host), so the page works on a machine with no network.
 */
export function referenceRoutes() {
  const router = Router();
  // Its Content-Security-Policy is CSP.reference (api/security-headers.ts), set where this is mounted.
  router.get('/reference', (_req, res) => void res.type('html').send(PAGE));
  router.use('/assets', express.static(REDOC_BUNDLES, { immutable: true, maxAge: '1d', index: false }));
  return router;
}
