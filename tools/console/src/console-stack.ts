import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { bootstrapDemo } from '@hireloop/devstack/bootstrap';
import { ensureConsoleBuilt } from '@hireloop/devstack/console-build';
import { step } from '@hireloop/devstack/log';
import { DATA_DIR, ROOT } from '@hireloop/devstack/paths';
import { localSecrets } from '@hireloop/devstack/secrets';
import { onStopSignal } from '@hireloop/devstack/signals';
import { startStack, type Stack } from '@hireloop/devstack/stack';
import { createRecruitingClient } from '@hireloop/recruiting/client';
import { launchChromium as launchBrowser } from '@hireloop/devstack/chromium';

/** A route of apps/console/src/routes.tsx, as far as these tools need it. */
export interface RouteInfo {
  path: string;
  title: string;
  example?: string;
}

/** The console's route table, read from its source (so a new view is included without a change here). */
export async function consoleRoutes(): Promise<RouteInfo[]> {
  const url = pathToFileURL(join(ROOT, 'apps', 'console', 'src', 'routes.tsx')).href;
  return ((await import(url)) as { routes: RouteInfo[] }).routes;
}

export interface ConsoleStack {
  stack: Stack;
  gatewayUrl: string;
  apiKey: string;
  admin: { email: string; password: string };
  browser: Browser;
  /** One REST call with the demo organization's key. */
  api: (method: string, path: string, body?: unknown) => Promise<{ status: number; data: Record<string, unknown> }>;
  recruiting: ReturnType<ReturnType<typeof createRecruitingClient>['forOrganization']>;
  organizationId: string;
}

/**
 * A throw-away stack (test mode, fresh data in .data/console-tools/<pid>), the demo organization,
 * a built console and Chromium, for `npm run screenshots` and `npm run bench:console`.
 */
export async function withConsoleStack<T>(work: (s: ConsoleStack) => Promise<T>): Promise<T> {
  const dataDir = join(DATA_DIR, 'console-tools', String(process.pid));
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(dataDir, 'stack.log');
  const log = createWriteStream(logFile);
  let stack: Stack | null = null;
  let browser: Browser | null = null;
  onStopSignal(() => void stack?.stop().then(() => process.exit(130)));
  let ok = false;
  try {
    await ensureConsoleBuilt();
    step(`Starting a stack (process output in ${relative(ROOT, logFile)})`);
    stack = await startStack({ mode: 'test', dataDir, env: { ...process.env }, log: (name) => (line) => log.write(`${name.padEnd(10)}| ${line}\n`) });
    const demo = await bootstrapDemo(stack.env, localSecrets(dataDir).demoAdminPassword);
    const gatewayUrl = stack.env['PUBLIC_BASE_URL']!;
    browser = await launchBrowser();
    const api: ConsoleStack['api'] = async (method, path, body) => {
      const res = await fetch(`${gatewayUrl}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${demo.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json().catch(() => ({}))) as { data?: Record<string, unknown> };
      if (res.status >= 400) throw new Error(`${method} ${path}: HTTP ${res.status} ${JSON.stringify(json)}`);
      return { status: res.status, data: json.data ?? {} };
    };
    const recruiting = createRecruitingClient(stack.env['RECRUITING_URL']!, stack.env['INTERNAL_TOKEN_KEYS']!).forOrganization(demo.organization.id);
    const result = await work({ stack, gatewayUrl, apiKey: demo.apiKey, admin: demo.admin, browser, api, recruiting, organizationId: demo.organization.id });
    ok = true;
    return result;
  } finally {
    await browser?.close();
    await stack?.stop();
    log.end();
    if (ok) rmSync(dataDir, { recursive: true, force: true });
    else step(`stack output kept in ${relative(ROOT, logFile)}`);
  }
}

/** Logs the page's context in as the demo admin. */
export async function logInAsAdmin(page: Page, s: ConsoleStack): Promise<void> {
  await page.goto(`${s.gatewayUrl}/console/login`);
  await page.getByLabel('E-mail').fill(s.admin.email);
  await page.getByLabel('Password').fill(s.admin.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}
