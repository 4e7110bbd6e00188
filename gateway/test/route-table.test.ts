import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { call, eventually, newKey, newOrganizationWithKey, startTestServer, testRecruiting } from '@hireloop/devstack/testing';
import type { Scope } from '@hireloop/contracts';
import { assertError, unique } from './api-assertions.js';

/**
 * Checks every public route from the OpenAPI document, so a new route is covered the moment it
 * exists: no key → 401 missing_api_key; a key with every scope but the route's → 403; another
 * organization's ids → 404 not_found, and another organization's records in no list.
 */
interface Route {
  method: string;
  path: string;
  scope: Scope;
}

const SCOPES: Scope[] = ['read', 'write', 'admin'];

async function routes(): Promise<Route[]> {
  const doc = (await call('GET', '/api/v1/openapi.json')).body as { paths: Record<string, Record<string, { 'x-required-scope': Scope }>> };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path: path.replace(/\{id\}/g, 'x_0000000000000000000000'), scope: op['x-required-scope'] })),
  );
}

describe('every route of the OpenAPI document', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let all: Route[];
  before(async () => {
    org = await newOrganizationWithKey(['read']);
    all = await routes();
    assert.ok(all.length >= 7);
  });

  it('refuses a request without a key: 401 missing_api_key', async () => {
    for (const r of all) {
      const res = await call(r.method, `/api/v1${r.path}`, { body: r.method === 'POST' ? {} : undefined });
      assert.equal(res.status, 401, `${r.method} ${r.path}`);
      assert.equal(res.body.error.code, 'missing_api_key');
    }
  });

  it('refuses a key that lacks exactly the route\'s scope: 403 insufficient_scope', async () => {
    for (const r of all) {
      const others = SCOPES.filter((s) => s !== r.scope);
      const { key } = await newKey(org.organization.id, others);
      const res = await call(r.method, `/api/v1${r.path}`, { key, body: r.method === 'POST' ? {} : undefined });
      assert.equal(res.status, 403, `${r.method} ${r.path} with ${others.join(',')}: ${res.text}`);
      assert.equal(res.body.error.code, 'insufficient_scope');
      assert.match(res.body.error.message, new RegExp(`\`${r.scope}\``));
    }
  });
});

type Operation = { 'x-required-scope': Scope; parameters?: { name: string; in: string; schema?: { pattern?: string } }[]; requestBody?: unknown };
interface ApiOperation {
  method: string;
  path: string;
  op: Operation;
}

/** Every id of one organization's resources, by prefix, made through the API (flows in the console's tRPC). */
async function resourcesOf(key: string, organizationId: string, receiverUrl: string): Promise<Map<string, string>> {
  const created = async (method: string, path: string, body: unknown, status = 201) => {
    const res = await call(method, `/api/v1${path}`, { key, body });
    assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
    return res.body.data as { id: string };
  };
  const position = await created('POST', '/positions', { title: 'Isolated' });
  const candidate = await created('POST', '/candidates', { email: `iso-${unique()}@example.com`, name: 'Isolated' });
  const interview = await created('POST', '/interviews', { positionId: position.id, candidate: { email: `iso-i-${unique()}@example.com`, name: 'Isolated' } });
  const flow = await testRecruiting().forOrganization(organizationId).flows.create.mutate({ name: 'Isolated', stages: [{ name: 'Screen', kind: 'screen' }] });
  const enrollment = await created('POST', `/hiring-flows/${flow.id}/candidates`, { candidateId: candidate.id });
  const webhook = await created('POST', '/webhooks', { url: receiverUrl, events: ['*'] });
  const task = await created('POST', '/ai/job-description', { title: 'Isolated' }, 202);
  // The registration's webhook.ping and the writes' events are written after the commit.
  const firstId = async (path: string) => {
    const page = await eventually(() => call('GET', `/api/v1${path}`, { key }), (res) => (res.body.data?.length ?? 0) > 0);
    assert.ok(page.body.data?.length, `${path} stayed empty`);
    return page.body.data[0].id as string;
  };
  return new Map([
    ['stage', flow.stages[0]!.id], ['pos', position.id], ['cand', candidate.id], ['int', interview.id], ['flow', flow.id], ['enr', enrollment.id], ['wh', webhook.id], ['task', task.id],
    ['dlv', await firstId(`/webhooks/${webhook.id}/deliveries`)], ['evt', await firstId('/events')],
  ]);
}

/**
 * A body each operation with path parameters accepts, so that the answer is about the ids alone.
 * A new route whose body `{}` does not satisfy gets its entry here (the test says so).
 */
const VALID_BODIES: Record<string, (own: Map<string, string>) => unknown> = {
  'PATCH /candidates/{id}': () => ({ name: 'Renamed by another organization' }),
  'PATCH /positions/{id}': () => ({ title: 'Renamed by another organization' }),
  'POST /hiring-flows/{id}/candidates': (own) => ({ candidateId: own.get('cand') }),
  'PATCH /hiring-flows/{id}/candidates/{enrollmentId}': () => ({ status: 'withdrawn' }),
  'POST /interviews/{id}/evaluation/review': () => ({ decision: 'advance' }),
  'PATCH /webhooks/{id}': () => ({ description: 'changed by another organization' }),
  'POST /webhooks/{id}/replay': () => ({ since: new Date(Date.now() - 3_600_000).toISOString() }),
  'POST /interviews': () => ({ candidate: { email: `iso-${unique()}@example.com`, name: 'Isolated' } }),
  'POST /ai/job-description': () => ({ title: 'Isolated' }),
};

const prefixOf = (param: { schema?: { pattern?: string } }) => /^\^([a-z]+)_/.exec(param.schema?.pattern ?? '')?.[1] ?? '';

describe('every route of the OpenAPI document, across organizations (org isolation)', () => {
  let ops: ApiOperation[];
  let mine: { key: string; ids: Map<string, string> };
  let theirs: { key: string; ids: Map<string, string> };
  let receiver: Awaited<ReturnType<typeof startTestServer>>;
  /**
   * Each of their resources a write could change, as their own key reads it (a webhook's delivery
   * `stats` move on their own as its ping is delivered).
   */
  const snapshotOf = async (who: { key: string; ids: Map<string, string> }) => {
    const paths = ['/candidates/{cand}', '/positions/{pos}', '/interviews/{int}', '/interviews/{int}/evaluation', '/hiring-flows/{flow}', '/hiring-flows/{flow}/candidates', '/webhooks/{wh}'];
    const out: Record<string, unknown> = {};
    for (const path of paths) {
      const res = await call('GET', `/api/v1${path.replace(/\{(\w+)\}/g, (_, p: string) => who.ids.get(p)!)}`, { key: who.key });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      out[path] = path === '/webhooks/{wh}' ? { ...res.body.data, stats: undefined } : res.body.data;
    }
    return out;
  };

  before(async () => {
    const doc = (await call('GET', '/api/v1/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
    ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
    receiver = await startTestServer(() => ({ status: 200 }));
    const a = await newOrganizationWithKey(['read', 'write', 'admin'], 100_000);
    const b = await newOrganizationWithKey(['read', 'write', 'admin'], 100_000);
    mine = { key: a.key, ids: await resourcesOf(a.key, a.organization.id, receiver.url) };
    theirs = { key: b.key, ids: await resourcesOf(b.key, b.organization.id, receiver.url) };
  });
  after(() => receiver?.close());

  it('another organization\'s id in any path parameter is 404 not_found, and changes nothing of theirs', async () => {
    const before = await snapshotOf(theirs);
    let checked = 0;
    for (const o of ops) {
      const params = (o.op.parameters ?? []).filter((p) => p.in === 'path');
      // One request per parameter: that one theirs, the others my own, so each is checked alone.
      for (const foreign of params) {
        const path = params.reduce((p, param) => {
          const id = (param === foreign ? theirs : mine).ids.get(prefixOf(param));
          assert.ok(id, `no ${prefixOf(param)}_ id to try for ${o.method} ${o.path}`);
          return p.replace(`{${param.name}}`, id);
        }, o.path);
        const body = o.op.requestBody || o.method === 'POST' ? (VALID_BODIES[`${o.method} ${o.path}`]?.(mine.ids) ?? {}) : undefined;
        const res = await call(o.method, `/api/v1${path}`, { key: mine.key, body });
        assert.equal(res.status, 404, `${o.method} ${o.path} with their ${foreign.name}: ${res.text} (a new route may need an entry in VALID_BODIES)`);
        assertError(res, 404, 'not_found');
        checked++;
      }
    }
    assert.ok(checked >= 20, `only ${checked} requests`);
    assert.deepEqual(await snapshotOf(theirs), before, 'their resources are as they were');
  });

  it('another organization\'s id in a body field is answered as an id that does not exist, and changes nothing of theirs', async () => {
    const before = await snapshotOf(theirs);
    let checked = 0;
    for (const o of ops) {
      const schema = (o.op.requestBody as { content?: { 'application/json'?: { schema?: { properties?: Record<string, { pattern?: string }> } } } } | undefined)?.content?.['application/json']?.schema;
      const idFields = Object.entries(schema?.properties ?? {}).filter(([, field]) => theirs.ids.has(prefixOf({ schema: field })));
      for (const [name, field] of idFields) {
        const prefix = prefixOf({ schema: field });
        const path = o.path.replace(/\{(\w+)\}/g, (_, param: string) => mine.ids.get(prefixOf((o.op.parameters ?? []).find((p) => p.name === param)!))!);
        const send = (id: string) => call(o.method, `/api/v1${path}`, { key: mine.key, body: { ...(VALID_BODIES[`${o.method} ${o.path}`]?.(mine.ids) as object), [name]: id } });
        const foreign = await send(theirs.ids.get(prefix)!);
        const madeUp = await send(`${prefix}_${'0'.repeat(24)}`);
        assert.ok(foreign.status >= 400, `${o.method} ${o.path} accepted their ${name}: ${foreign.text}`);
        assert.deepEqual([foreign.status, foreign.body.error?.code], [madeUp.status, madeUp.body.error?.code], `${o.method} ${o.path} ${name}: ${foreign.text} vs ${madeUp.text}`);
        checked++;
      }
    }
    assert.ok(checked >= 4, `only ${checked} requests`);
    assert.deepEqual(await snapshotOf(theirs), before, 'their resources are as they were');
  });

  it('no list shows another organization\'s records, also when filtered by their ids', async () => {
    const theirIds = [...theirs.ids.values()];
    const lists = ops.filter((o) => o.method === 'GET' && !o.path.includes('{') && (o.op.parameters ?? []).some((p) => p.name === 'limit'));
    assert.ok(lists.length >= 7);
    for (const o of lists) {
      const filters = (o.op.parameters ?? []).filter((p) => p.in === 'query' && theirs.ids.has(prefixOf(p)));
      for (const query of ['', ...filters.map((p) => `${p.name}=${theirs.ids.get(prefixOf(p))}`)]) {
        const res = await call('GET', `/api/v1${o.path}?limit=100${query ? `&${query}` : ''}`, { key: mine.key });
        assert.equal(res.status, 200, `${o.path}?${query}: ${res.text}`);
        for (const id of theirIds) assert.ok(!res.text.includes(id), `${o.path}?${query} shows their ${id}`);
      }
    }
  });
});
