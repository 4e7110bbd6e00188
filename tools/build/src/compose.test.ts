import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { LANE_NAMES, parseLanes } from '@hireloop/platform/lanes';
import { PROCESSES, REPO_ROOT } from './runtime-tree.js';

interface ComposeService {
  image?: string;
  command?: string[];
  ports?: unknown[];
  profiles?: string[];
  environment?: Record<string, string>;
}

/**
 * docker-compose.yml as Compose itself resolves it (`docker-compose config`; .ci/run installs
 * Debian's docker-compose): valid, the proxy is the only published port, two gateways, a worker
 * deployment for every work lane, and every Hireloop process runs built code from the image.
 */
describe('docker-compose.yml', () => {
  const resolved = () => {
    const env = {
      ...process.env, POSTGRES_PASSWORD: 'p', INTERNAL_AUTH_SECRET: 's'.repeat(32), WEBHOOK_SECRET_KEY: 'k', PUBLIC_BASE_URL: 'https://hireloop.example',
      IDENTITY_DB_PASSWORD: 'pi', RECRUITING_DB_PASSWORD: 'pr', INTEGRATIONS_DB_PASSWORD: 'pn', GATEWAY_DB_PASSWORD: 'pg',
    };
    const out = execFileSync('docker-compose', ['config'], { cwd: REPO_ROOT, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return (parse(out) as { services: Record<string, ComposeService> }).services;
  };

  it('is valid, publishes only the reverse proxy, and runs two gateways and a worker for every lane from dist', () => {
    const services = resolved();
    const published = Object.entries(services).filter(([, s]) => (s.ports ?? []).length > 0).map(([name]) => name);
    assert.deepEqual(published, ['proxy']);
    assert.deepEqual(services['temporal-ui']?.profiles, ['ops'], 'the Temporal UI runs only on demand');

    const hireloop = Object.entries(services).filter(([, s]) => s.image === 'hireloop:latest');
    const entries = hireloop.map(([name, s]) => {
      assert.equal(s.command?.[0], 'node', name);
      assert.ok(!s.command.includes('tsx') && !s.command.includes('--import'), `${name} runs without tsx`);
      const entry = s.command.at(-1)!;
      assert.match(entry, /\/dist\/[\w-]+\.js$/, name);
      assert.equal(s.environment?.['NODE_ENV'], 'production', name);
      const process = PROCESSES.find((p) => p.entry === entry);
      assert.ok(process, `${name} runs a known process (${entry})`);
      assert.ok(s.environment?.['HEALTH_PORT'], `${name} tells the image's HEALTHCHECK its port`);
      return entry;
    });
    for (const p of PROCESSES) assert.ok(entries.includes(p.entry), `compose runs ${p.name}`);
    assert.equal(entries.filter((e) => e === 'gateway/dist/index.js').length, 2, 'two gateways');
    // Each worker deployment names its lanes; together they poll every lane's queue.
    const workers = hireloop.filter(([, s]) => s.command?.at(-1) === 'workflows/dist/worker.js');
    const polled = workers.flatMap(([name, s]) => {
      assert.ok(s.environment?.['WORKER_LANES'], `${name} names its lanes`);
      return parseLanes(s.environment['WORKER_LANES']);
    });
    assert.deepEqual([...new Set(polled)].sort(), [...LANE_NAMES].sort(), 'every lane has a worker');
    assert.ok(workers.length >= LANE_NAMES.length - 1, 'the lanes run in deployments of their own');
    assert.ok(existsSync(join(REPO_ROOT, 'deploy/nginx.conf')));
    for (const name of ['gateway-1', 'gateway-2']) assert.equal(services[name]?.environment?.['TRUST_PROXY'], '1', `${name} takes the client IP from nginx's X-Forwarded-For`);
  });

  it("connects each service as its own Postgres role, made by the db-roles job, and gives no process the superuser's URL", () => {
    const services = resolved();
    const own = { identity: 'IDENTITY_DATABASE_URL', recruiting: 'RECRUITING_DATABASE_URL', integrations: 'INTEGRATIONS_DATABASE_URL', 'gateway-1': 'GATEWAY_DATABASE_URL', 'gateway-2': 'GATEWAY_DATABASE_URL',
      // The workers purge the gateway's idempotency records, as the gateway's role.
      ...Object.fromEntries(['worker-deliveries', 'worker-ai-1', 'worker-ai-2', 'worker-erasure', 'worker-ats'].map((w) => [w, 'GATEWAY_DATABASE_URL'])) } as Record<string, string>;
    for (const [name, s] of Object.entries(services).filter(([, s]) => s.image === 'hireloop:latest')) {
      const urls = Object.keys(s.environment ?? {}).filter((k) => k.endsWith('DATABASE_URL'));
      assert.deepEqual(urls, own[name] ? [own[name]] : [], `${name} gets only its own database URL`);
      if (own[name]) assert.match(s.environment![own[name]]!, new RegExp(`^postgres://hireloop_${own[name].split('_')[0]!.toLowerCase()}:`), name);
    }
    assert.ok(services['db-roles'], 'the db-roles job exists');
    assert.ok(existsSync(join(REPO_ROOT, 'deploy/postgres-roles.sql')));
  });
});
