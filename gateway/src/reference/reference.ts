import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router } from 'express';

const require = createRequire(import.meta.url);
const REDOC_BUNDLE = join(dirname(require.resolve('redoc/package.json')), 'bundles', 'redoc.standalone.js');
/** The one URL of another host the bundle loads: the logo of its "API docs by Redocly" badge. */
const REDOC_LOGO = '"https://cdn.redoc.ly/redoc/logo-mini.svg"';

/**
 * Redoc's bundle with its badge's logo pointed at nothing (`data:,`): the badge has no option to
 * turn it off, and an image hidden by CSS is still fetched. redoc is pinned; if an upgrade moves
 * the URL, the gateway refuses to start rather than serve a page that calls out.
 */
function redocBundle(): Buffer {
  const source = readFileSync(REDOC_BUNDLE, 'utf8');
  if (!source.includes(REDOC_LOGO)) throw new Error('redoc.standalone.js no longer holds the badge logo URL this gateway replaces; check the reference page for external loads');
  return Buffer.from(source.replaceAll(REDOC_LOGO, '"data:,"'));
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Hireloop API reference</title>
  <link rel="icon" href="/favicon.ico">
  <style>
    body { margin: 0; }
    /* System fonts (Redoc names Montserrat and Roboto; nothing is loaded for them), and no badge. */
    redoc, redoc h1, redoc h2, redoc h3, redoc h4, redoc h5 { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif !important; }
    redoc a[href*="redocly.com/redoc"] { display: none !important; }
  </style>
</head>
<body>
  <redoc spec-url="/api/v1/openapi.json" hide-download-button="false" required-props-first="true"></redoc>
  <script src="/developers/assets/redoc.standalone.js"></script>
</body>
</html>`;

/**
 * /developers/reference: the OpenAPI document rendered with Redoc, every asset served from here
 * (no CDN, no font host), so the page works on a machine with no network. /developers/changelog:
 * docs/changelog.md (`changelogFile`), the API changes by date, as plain text; the document's
 * description links to it.
 */
export function referenceRoutes(changelogFile: string) {
  const router = Router();
  // Its Content-Security-Policy is CSP.reference (api/security-headers.ts), set where this is mounted.
  router.get('/reference', (_req, res) => void res.type('html').send(PAGE));
  const changelog = readFileSync(changelogFile, 'utf8');
  router.get('/changelog', (_req, res) => void res.type('text/plain; charset=utf-8').send(changelog));
  const bundle = redocBundle();
  router.get('/assets/redoc.standalone.js', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('text/javascript').send(bundle);
  });
  return router;
}
