import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { call, newOrganizationWithKey, testEnv } from '@hireloop/devstack/testing';
import { CONTENT_ENCODINGS, CONTENT_TYPES, NASTY_BODIES, NASTY_PATH_SEGMENTS, NASTY_QUERY_VALUES, NASTY_STRINGS } from './hostile/corpus.js';
import { arbitraryFor, type KnownIds } from './hostile/schema-arbitrary.js';
import { checkApiAnswer, operationsOf, requestArbitrary, send, validatorsFor, type ApiOperation, type HostileRequest, type OpenApiDocument } from './hostile/api-requests.js';
import { unique } from './api-assertions.js';

/**
 * Issue 7's hostile-input suite, generated from the live /api/v1/openapi.json: every operation
 * gets the corpus of nasty values in every place (a sweep), then fast-check's random requests
 * built from its schemas and broken. Never a 5xx; every error body validates against the Error
 * schema, every success body against the operation's response schema.
 *
 * FUZZ_RUNS (default 2000) sets the random run's size, FUZZ_SEED replays one; `npm run test:fuzz`
 * runs a long one. Both print the case count and the seed.
 */
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 2000);
const SEED = process.env['FUZZ_SEED'] ? Number(process.env['FUZZ_SEED']) : (Date.now() ^ (Math.random() * 2 ** 31)) | 0;

/** Values for one field in the sweep: the string corpus plus the wrong kinds. */
const SWEEP_VALUES: unknown[] = ['a\u0000b', 'x\ud800y', '\udc00', '30', '', 'x'.repeat(20_001), null, 1.5, 2 ** 53 + 2, -1, [], {}, JSON.parse('{"__proto__": {"polluted": true}}')];

describe('hostile input on /api/v1 (issue 7)', () => {
  let key: string;
  let doc: OpenApiDocument;
  let ops: ApiOperation[];
  let validators: ReturnType<typeof validatorsFor>;
  const known: KnownIds = new Map();
  const baseUrl = () => testEnv().gatewayUrl;

  before(async () => {
    // An organization of its own with a rate limit the run cannot reach, so no other test notices it.
    key = (await newOrganizationWithKey(['read', 'write', 'admin'], 1_000_000)).key;
    const candidate = await call('POST', '/api/v1/candidates', { key, body: { email: `hostile-${unique()}@example.com`, name: 'Hostile Input' } });
    const position = await call('POST', '/api/v1/positions', { key, body: { title: 'Hostile position' } });
    assert.equal(candidate.status, 201, candidate.text);
    assert.equal(position.status, 201, position.text);
    const interview = await call('POST', '/api/v1/interviews', { key, body: { candidate: { email: `hostile-i-${unique()}@example.com`, name: 'I' }, positionId: position.body.data.id } });
    assert.equal(interview.status, 201, interview.text);
    known.set('cand', [candidate.body.data.id]);
    known.set('pos', [position.body.data.id]);
    known.set('int', [interview.body.data.id]);
    const res = await call('GET', '/api/v1/openapi.json');
    doc = res.body as unknown as OpenApiDocument;
    ops = operationsOf(doc);
    validators = validatorsFor(doc);
  });

  after(async () => {
    // Webhooks the run created point at .invalid hosts; remove them all the same.
    for (;;) {
      const page = await call('GET', '/api/v1/webhooks?limit=100', { key });
      const ids = ((page.body as { data?: { id: string }[] }).data ?? []).map((w) => w.id);
      if (!ids.length) break;
      for (const id of ids) await call('DELETE', `/api/v1/webhooks/${id}`, { key });
    }
  });

  const opFor = (method: string, path: string) => ops.find((o) => o.method === method && o.path === path)!;
  const urlOf = (o: ApiOperation, id = known.get('cand')![0]!) => `/api/v1${o.path.replace(/\{[^}]+\}/g, id)}`;
  /**
   * The operation a request reaches: a `..` or `%2e%2e` segment is resolved by the URL parser
   * before it is sent (`/hiring-flows/../candidates` is `GET /candidates`), so its answer is that
   * route's. The most specific template wins, as in the router.
   */
  const routeReached = (o: ApiOperation, url: string): ApiOperation => {
    const sent = url.split('?')[0]!;
    const resolved = new URL(sent, 'http://host').pathname;
    if (resolved === sent) return o;
    const path = resolved.replace(/^\/api\/v1/, '');
    const matches = ops.filter((c) => c.method === o.method && new RegExp(`^${c.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
    return matches.sort((a, b) => a.path.split('{').length - b.path.split('{').length)[0] ?? o;
  };
  const sample = (o: ApiOperation): unknown => {
    const schema = o.op.requestBody?.content['application/json']?.schema;
    if (!schema) return undefined;
    const resolve = (ref: string) => doc.components.schemas[ref.replace('#/components/schemas/', '')]!;
    return fc.sample(arbitraryFor(schema, resolve, known), { numRuns: 1, seed: 42 })[0];
  };
  const leafPaths = (value: unknown, prefix: string[] = []): string[][] =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...leafPaths(v, [...prefix, k])])
      : [];
  const withValueAt = (value: unknown, path: string[], replacement: unknown): unknown => {
    const copy = structuredClone(value) as Record<string, unknown>;
    let node = copy;
    for (const k of path.slice(0, -1)) node = node[k] as Record<string, unknown>;
    node[path[path.length - 1]!] = replacement;
    return copy;
  };

  it('the corpus in every place of every operation: never a 5xx, every body as documented', async () => {
    const cases: { o: ApiOperation; req: HostileRequest }[] = [];
    const json = { 'content-type': 'application/json' };
    const auth = { authorization: `Bearer ${key}` };
    for (const o of ops) {
      const hasBody = Boolean(o.op.requestBody);
      const valid = sample(o);
      const validBytes = Buffer.from(JSON.stringify(valid ?? {}));
      for (const b of NASTY_BODIES) {
        if (hasBody || o.method !== 'GET') cases.push({ o, req: { label: `${o.method} ${o.path} body ${b.name}`, method: o.method, url: urlOf(o), headers: { ...auth, ...json }, body: b.bytes } });
      }
      for (const p of (o.op.parameters ?? []).filter((p) => p.in === 'query')) {
        for (const v of NASTY_QUERY_VALUES) cases.push({ o, req: { label: `${o.method} ${o.path} ?${p.name}=${v.slice(0, 40)}`, method: o.method, url: `${urlOf(o)}?${p.name}=${v}`, headers: auth } });
      }
      if (o.path.includes('{')) {
        for (const v of NASTY_PATH_SEGMENTS) cases.push({ o, req: { label: `${o.method} ${o.path} id=${v.slice(0, 40)}`, method: o.method, url: urlOf(o, v), headers: auth, body: hasBody ? validBytes : undefined } });
      }
      if (!hasBody) continue;
      for (const path of leafPaths(valid)) {
        for (const v of SWEEP_VALUES) {
          cases.push({ o, req: { label: `${o.method} ${o.path} ${path.join('.')}=${JSON.stringify(v).slice(0, 40)}`, method: o.method, url: urlOf(o), headers: { ...auth, ...json }, body: Buffer.from(JSON.stringify(withValueAt(valid, path, v))) } });
        }
      }
      for (const s of NASTY_STRINGS) {
        cases.push({ o, req: { label: `${o.method} ${o.path} unknown field`, method: o.method, url: urlOf(o), headers: { ...auth, ...json }, body: Buffer.from(JSON.stringify({ ...(valid as object), [s]: s })) } });
      }
      for (const type of CONTENT_TYPES) {
        for (const encoding of CONTENT_ENCODINGS) {
          const headers: Record<string, string> = { ...auth, 'content-type': type };
          if (encoding) headers['content-encoding'] = encoding;
          cases.push({ o, req: { label: `${o.method} ${o.path} ${type} ${encoding ?? ''}`, method: o.method, url: urlOf(o), headers, body: validBytes } });
        }
      }
    }
    for (const { o, req } of cases) checkApiAnswer(validators, routeReached(o, req.url).op, req, await send(baseUrl(), req));
    console.log(`hostile-input sweep: ${cases.length} cases over ${ops.length} operations`);
  });

  it('the same rules hold under an unknown route and on the document itself', async () => {
    for (const url of ['/api/v1/%ff', '/api/v1/candidates%00', '/api/v1/openapi.json?x=%ff', '/api/v1/nope?limit=1e1']) {
      const res = await send(baseUrl(), { label: url, method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
      assert.ok(res.status < 500, `${url}: ${res.status}`);
      if (res.status >= 400) validators.assertError(res.body, res.headers.get('x-request-id'), url);
    }
    assert.ok(opFor('GET', '/me'));
  });

  it(`fast-check: random requests built from the schemas, then broken (FUZZ_RUNS, FUZZ_SEED)`, async () => {
    console.log(`hostile-input fuzz: ${RUNS} cases, seed ${SEED} (replay with FUZZ_SEED=${SEED})`);
    const requests = fc.constantFrom(...ops).chain((o) => requestArbitrary(doc, o, known, key).map((req) => ({ o, req, [fc.toStringMethod]: () => req.label })));
    await fc.assert(
      fc.asyncProperty(requests, async ({ o, req }) => {
        checkApiAnswer(validators, routeReached(o, req.url).op, req, await send(baseUrl(), req));
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
