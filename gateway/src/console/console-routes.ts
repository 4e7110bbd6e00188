import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router, type Request, type Response } from 'express';
import { htmlErrorPage } from '../api/errors.js';

export interface ConsoleOptions {
  /** apps/console/dist: the built console (never its sources). */
  distDir: string;
  /** Told to the console in a meta tag of index.html: its header links there (operators). */
  temporalUiUrl: string;
}

const attribute = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const TEMPORAL_META = '<meta name="hireloop-temporal-ui" content="">';

/**
 * The console: hashed assets under /console/assets (cached for good), and index.html for every
 * other path without a file extension, so deep links and reloads land in the client's router.
 * index.html carries what the console needs to know of the server's settings (no extra call).
 */
export function consoleRoutes(options: ConsoleOptions) {
  const router = Router();
  const indexFile = join(options.distDir, 'index.html');
  let cached: { mtimeMs: number; html: string } | null = null;
  /** index.html with the settings filled in; re-read when a rebuild replaced it. */
  const indexHtml = (): string | null => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(indexFile).mtimeMs;
    } catch {
      return null;
    }
    if (cached?.mtimeMs !== mtimeMs) {
      const html = readFileSync(indexFile, 'utf8').replace(TEMPORAL_META, `<meta name="hireloop-temporal-ui" content="${attribute(options.temporalUiUrl)}">`);
      cached = { mtimeMs, html };
    }
    return cached.html;
  };
  const notFound = (_req: Request, res: Response) => void res.status(404).type('html').send(htmlErrorPage(404, 'There is no such page in the console.'));

  router.use('/assets', express.static(join(options.distDir, 'assets'), { index: false, redirect: false, immutable: true, maxAge: '365d' }), notFound);
  router.get('/{*path}', (req, res) => {
    // A missing file (…/app.js, …/logo.png) is a 404, not the app.
    if (/\.[A-Za-z0-9]+$/.test(req.path)) return notFound(req, res);
    const html = indexHtml();
    if (html === null) {
      return void res.status(503).type('html').send(htmlErrorPage(503, 'The console has not been built yet: run `npm run build` (`npm start` builds it).'));
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(html);
  });
  router.use(notFound);
  return router;
}
