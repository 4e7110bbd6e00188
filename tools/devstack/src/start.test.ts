import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from './child-process.js';
import { freePort } from './ports.js';
import { ROOT } from './paths.js';
import { ownDatabase } from '@hireloop/platform/own-database';

/**
 * `npm start` itself, pointed at the test stack's Postgres server and Temporal through DATABASE_URL
 * and TEMPORAL_ADDRESS (so it starts no database or Temporal of its own): it comes up, prints a key
 * that works, and Ctrl-C (SIGINT) stops every process it started. It gets a database of its own
 * on that server and its own task queue: its relays must not pick up the other tests' outboxes.
 */
describe('npm start (the launcher)', () => {
  it('uses external servers from DATABASE_URL and TEMPORAL_ADDRESS, prints a working key, and stops cleanly on Ctrl-C to its process group', async () => {
    const ports: Record<string, string> = {};
    for (const name of ['GATEWAY_PORT', 'IDENTITY_PORT', 'RECRUITING_PORT', 'INTEGRATIONS_PORT', 'WORKER_PORT']) ports[name] = String(await freePort());
    const runtimeFile = join(tmpdir(), `hireloop-runtime-${process.pid}.json`);
    const database = await ownDatabase('launcher');
    const lines: string[] = [];
    const launcher = startChild({
      name: 'npm start',
      command: process.execPath,
      args: ['--import', 'tsx', join(ROOT, 'tools/devstack/src/start.ts')],
      env: {
        PATH: process.env['PATH'],
        HOME: process.env['HOME'],
        NO_COLOR: '1',
        DATABASE_URL: database.url,
        TEMPORAL_ADDRESS: process.env['TEMPORAL_ADDRESS'],
        TEMPORAL_CLI: process.env['TEMPORAL_CLI'],
        // Configured as a stack from before key ids was: these two only. It must still start.
        INTERNAL_AUTH_SECRET: randomBytes(32).toString('base64url'),
        WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
        TEMPORAL_TASK_QUEUE: `launcher-${process.pid}`,
        PUBLIC_BASE_URL: `http://localhost:${ports['GATEWAY_PORT']}`,
        HIRELOOP_RUNTIME_FILE: runtimeFile,
        LOG_LEVEL: 'warn',
        ...ports,
      },
      cwd: ROOT,
      log: (line) => lines.push(line),
      // As in a terminal: the launcher leads a process group, and Ctrl-C goes to the whole group.
      ownGroup: true,
    });
    try {
      const deadline = Date.now() + 120_000;
      while (!lines.some((l) => l.includes('Hireloop is running.'))) {
        assert.ok(Date.now() < deadline, `the launcher did not come up:\n${lines.join('\n')}`);
        assert.equal(launcher.process.exitCode, null, `the launcher exited:\n${lines.join('\n')}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      const output = lines.join('\n');
      assert.doesNotMatch(output, /Starting embedded Postgres|Starting the Temporal dev server/, 'no database or Temporal of its own');
      for (const label of ['API base URL', 'API reference', 'Console', 'Temporal UI', 'API key']) assert.match(output, new RegExp(label));
      const key = /API key\s+(hl_[0-9A-Za-z]{38})/.exec(output)![1]!;
      const me = await fetch(`http://127.0.0.1:${ports['GATEWAY_PORT']}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(me.status, 200);
      assert.deepEqual(((await me.json()) as { data: { scopes: string[] } }).data.scopes, ['read', 'write', 'admin']);
      assert.ok(existsSync(runtimeFile), 'the CLIs can find the running stack');

      // Ctrl-C in a terminal: SIGINT to the whole foreground process group, not only the launcher.
      const stopping = Date.now();
      process.kill(-launcher.pid, 'SIGINT');
      assert.equal(await launcher.exited, 0);
      process.stdout.write(`# launcher stopped ${((Date.now() - stopping) / 1000).toFixed(1)} s after Ctrl-C\n`);
      assert.ok(lines.some((l) => l.includes('Stopped.')));
      assert.ok(!existsSync(runtimeFile), 'runtime file removed');
      for (const port of Object.values(ports)) {
        await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`), TypeError, `port ${port} still answers after stop`);
      }
    } finally {
      await launcher.stop();
      await database.drop();
    }
  });
});
