import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { step, warn } from '@hireloop/devstack/log';
import { ROOT } from '@hireloop/devstack/paths';
import { consoleRoutes, logInAsAdmin, withConsoleStack } from './console-stack.js';
import { seedDemo } from './seed.js';

// `npm run screenshots`: every console route (from apps/console/src/routes.tsx) and the login
// page at 1280 and 390 px, against a fresh stack with demo data → docs/screenshots/<route>-<width>.png.
const OUT = join(ROOT, 'docs', 'screenshots');
const WIDTHS = [1280, 390];

const fileName = (path: string, width: number) => `${path.replace(/\/:[^/]+/g, '-detail').replace(/[^a-z0-9-]+/gi, '-')}-${width}.png`;

await withConsoleStack(async (s) => {
  const ids = await seedDemo(s);
  const routes = await consoleRoutes();
  mkdirSync(OUT, { recursive: true });
  for (const file of readdirSync(OUT)) if (file.endsWith('.png')) rmSync(join(OUT, file));
  let count = 0;
  for (const width of WIDTHS) {
    const context = await s.browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${s.gatewayUrl}/console/login`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await page.screenshot({ path: join(OUT, `login-${width}.png`), fullPage: true });
    count++;
    await logInAsAdmin(page, s);
    for (const route of routes) {
      let path = route.path;
      if (path.includes(':')) {
        const example = route.example?.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? `{${name}}`);
        if (!example || example.includes('{')) {
          warn(`no example data for /console/${route.path}; left out`);
          continue;
        }
        path = example;
      }
      await page.goto(`${s.gatewayUrl}/console/${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: join(OUT, fileName(route.path, width)), fullPage: true });
      count++;
    }
    await context.close();
  }
  step(`${count} screenshots in ${relative(ROOT, OUT)}`);
});
