import { gzipSync } from 'node:zlib';
import { step } from '@hireloop/devstack/log';
import { consoleRoutes, logInAsAdmin, withConsoleStack } from './console-stack.js';
import { seedDemo } from './seed.js';

// `npm run bench:console [-- <view>]`: the console's first load on loopback, against a fresh
// stack with demo data (test mode: tsx services, warn logs): JS size gzipped, time to the first
// rendered list, and the tRPC requests the view makes. Default view: candidates, else keys.
const RUNS = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

await withConsoleStack(async (s) => {
  await seedDemo(s);
  const routes = (await consoleRoutes()).map((r) => r.path);
  const view = process.argv[2] ?? (routes.includes('candidates') ? 'candidates' : 'keys');
  const times: number[] = [];
  let jsRaw = 0;
  let jsGzip = 0;
  let trpcRequests: string[] = [];
  let waterfall: string[] = [];
  for (let run = 0; run < RUNS; run++) {
    // A fresh context each run: a cold cache, as on a first visit; the login is not measured.
    const context = await s.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const login = await context.newPage();
    await logInAsAdmin(login, s);
    await login.close();
    const page = await context.newPage();
    const scripts = new Map<string, Buffer>();
    const trpc: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/trpc/')) trpc.push(`${req.method()} ${url.pathname}${url.searchParams.has('batch') ? ' (batch)' : ''}`);
    });
    page.on('response', (res) => {
      if (/\/console\/assets\/.+\.js$/.test(new URL(res.url()).pathname)) void res.body().then((b) => scripts.set(res.url(), b), () => undefined);
    });
    await page.goto(`${s.gatewayUrl}/console/${view}`);
    // The first rendered list: a row of a table (or its cards), or the empty state.
    await page.locator('table.data-table tbody tr, .empty').first().waitFor();
    times.push(await page.evaluate(() => performance.now()));
    await page.waitForLoadState('networkidle');
    // Where the time goes: each request's start and end, from the page's own resource timings.
    const entries = await page.evaluate(() =>
      [{ name: 'document', startTime: 0, responseEnd: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseEnd }, ...performance.getEntriesByType('resource')].map((e) => ({
        name: new URL(e.name, location.href).pathname,
        start: Math.round(e.startTime),
        end: Math.round((e as PerformanceResourceTiming).responseEnd),
      })),
    );
    if (run === RUNS - 1) waterfall = entries.map((e) => `${e.name.replace(/^\/console\/assets\//, '')} ${e.start}–${e.end} ms`);
    if (run === 0) {
      jsRaw = [...scripts.values()].reduce((n, b) => n + b.length, 0);
      jsGzip = [...scripts.values()].reduce((n, b) => n + gzipSync(b).length, 0);
      trpcRequests = trpc;
    }
    await context.close();
  }
  const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
  step(`view /console/${view}, ${RUNS} cold loads at 1280 px on loopback`);
  process.stdout.write([
    `  JS loaded:                 ${kb(jsRaw)} (${kb(jsGzip)} gzipped)`,
    `  first rendered list:       median ${median(times).toFixed(0)} ms after navigation start (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})`,
    `  tRPC HTTP requests:        ${trpcRequests.length} (${trpcRequests.join(', ')})`,
    `  requests of the last load: ${waterfall.join('; ')}`,
    '',
  ].join('\n'));
});
