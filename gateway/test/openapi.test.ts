import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { call, newKey, newOrganizationWithKey, type ApiResponse } from '@hireloop/devstack/testing';
import { unique } from './api-assertions.js';
import { schedule, startInvite, submitInvite, tokenOf } from './interview-helpers.js';

/** The path with a well-formed id for each parameter (its prefix from the published pattern): the input is checked before the look-up. */
function samplePath(path: string, op: any): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const pattern = op.parameters.find((p: any) => p.in === 'path' && p.name === name).schema.pattern as string;
    return `${/^\^([a-z]+_)/.exec(pattern)![1]}0000000000`;
  });
}

/** Follows a local `$ref` (`#/components/…`) once. */
function resolve(doc: any, node: any): any {
  if (!node?.$ref) return node;
  return (node.$ref as string).slice(2).split('/').reduce((at: any, key) => at?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
}

describe('GET /api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.x document, served without a key', async () => {
    const res = await call('GET', '/api/v1/openapi.json');
    assert.equal(res.status, 200);
    const validator = new Validator();
    const result = await validator.validate(res.body as Parameters<Validator['validate']>[0]);
    assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
    assert.match((res.body as { openapi: string }).openapi, /^3\./);
  });

  it('declares bearer security and, for every route, its scope, schemas and error responses', async () => {
    const doc = (await call('GET', '/api/v1/openapi.json')).body as any;
    assert.equal(doc.components.securitySchemes.bearer.scheme, 'bearer');
    assert.ok(doc.components.schemas.Error);
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item as object).map(([method, op]) => ({ path, method, op: op as any })));
    assert.ok(operations.some((o) => o.path === '/me' && o.method === 'get'));
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.ok(['read', 'write', 'admin'].includes(op['x-required-scope']), `${where} scope`);
      assert.deepEqual(op.security, [{ bearer: [] }], `${where} security`);
      assert.ok(Object.keys(op.responses).some((s) => s.startsWith('2')), `${where} success response`);
      for (const status of ['401', '403', '422', '429', '500']) {
        const response = resolve(doc, op.responses[status]);
        assert.equal(response?.content['application/json'].schema.$ref, '#/components/schemas/Error', `${where} ${status}`);
      }
    }
  });
});

/** Response headers of the API that the document must declare wherever the server sends them. */
const DOCUMENTED_HEADERS = ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Location', 'Link', 'Idempotent-Replayed', 'WWW-Authenticate'];

describe('GET /api/v1/openapi.json: response headers (issue 12 item 1)', () => {
  it('declares, on each response, every header the server sends with it', async () => {
    const doc = (await call('GET', '/api/v1/openapi.json')).body as any;
    const org = await newOrganizationWithKey(['read', 'write'], 6000);
    const tight = await newKey(org.organization.id, ['read'], 1);
    const seen: { route: string; res: ApiResponse<any> }[] = [];
    const send = async (route: string, path: string, options: Parameters<typeof call>[2] = {}) => {
      const res = await call(route.split(' ')[0]!, path, options);
      seen.push({ route, res });
      return res;
    };
    const body = { email: `headers-${unique()}@example.com`, name: 'Header Check' };
    const idem = { 'Idempotency-Key': `idem-${unique()}` };
    assert.equal((await send('POST /candidates', '/api/v1/candidates', { key: org.key, body, headers: idem })).status, 201);
    assert.equal((await send('POST /candidates', '/api/v1/candidates', { key: org.key, body, headers: idem })).headers.get('idempotent-replayed'), 'true');
    assert.equal((await send('POST /candidates', '/api/v1/candidates', { key: org.key, body })).status, 409);
    await send('POST /candidates', '/api/v1/candidates', { key: org.key, body: { email: `headers-${unique()}@example.com`, name: 'Second' } });
    assert.ok((await send('GET /candidates', '/api/v1/candidates?limit=1', { key: org.key })).headers.get('link'));
    assert.equal((await send('GET /candidates', '/api/v1/candidates?limit=0', { key: org.key })).status, 422);
    assert.equal((await send('GET /candidates/{id}', '/api/v1/candidates/cand_0000000000000000', { key: org.key })).status, 404);
    assert.equal((await send('GET /me', '/api/v1/me')).status, 401);
    await send('GET /me', '/api/v1/me', { key: tight.key });
    assert.equal((await send('GET /me', '/api/v1/me', { key: tight.key })).status, 429);

    for (const { route, res } of seen) {
      const [method, path] = route.split(' ') as [string, string];
      const response = resolve(doc, doc.paths[path]?.[method.toLowerCase()]?.responses[String(res.status)]);
      assert.ok(response, `${route} ${res.status} is not in the document`);
      const declared = Object.keys(response.headers ?? {}).map((h) => h.toLowerCase());
      const sent = DOCUMENTED_HEADERS.filter((h) => res.headers.has(h)).map((h) => h.toLowerCase());
      assert.ok(sent.includes('x-request-id'), `${route} ${res.status} has no X-Request-Id`);
      assert.deepEqual(sent.filter((h) => !declared.includes(h)), [], `${route} ${res.status} sends headers the document does not declare`);
      for (const [name, header] of Object.entries(response.headers ?? {})) {
        assert.ok(resolve(doc, header)?.schema, `${route} ${res.status} header ${name} resolves to a header object`);
      }
    }
  });
});

describe('GET /api/v1/openapi.json: the limits the server enforces (issue 12 item 1)', () => {
  it('publishes the limits that validation applies: one past maxLength or maxItems is 422, the limit itself passes', async () => {
    const doc = (await call('GET', '/api/v1/openapi.json')).body as any;
    const { key } = await newOrganizationWithKey(['read', 'write']);
    const body = doc.paths['/candidates'].post.requestBody.content['application/json'].schema;
    const nameMax = body.properties.name.maxLength as number;
    const metadataMax = body.properties.metadata.maxProperties as number;
    assert.equal(nameMax, 200);
    assert.equal(metadataMax, 50);
    const metadata = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
    const create = (over: Record<string, unknown>) => call('POST', '/api/v1/candidates', { key, body: { email: `limits-${unique()}@example.com`, name: 'N', ...over } });
    assert.equal((await create({ name: 'x'.repeat(nameMax + 1) })).status, 422);
    assert.equal((await create({ metadata: metadata(metadataMax + 1) })).status, 422);
    const ok = await create({ name: 'x'.repeat(nameMax), metadata: metadata(metadataMax) });
    assert.equal(ok.status, 201, ok.text);
    const questions = doc.paths['/positions'].post.requestBody.content['application/json'].schema.properties.interviewQuestions;
    const position = (n: number) => call('POST', '/api/v1/positions', { key, body: { title: 'T', interviewQuestions: Array.from({ length: n }, (_, i) => `Q${i}?`) } });
    assert.equal((await position(questions.maxItems + 1)).status, 422);
    assert.equal((await position(questions.maxItems)).status, 201);
    const duration = doc.paths['/interviews'].post.requestBody.content['application/json'].schema.properties.duration;
    assert.deepEqual([duration.format, duration.minimum, duration.maximum], ['int32', 5, 180]);
  });

  it('says additionalProperties: false on every request body, as the server refuses an unknown field on each (found by schemathesis)', async () => {
    // trpc-to-openapi dropped it from bodies with a cross-field rule (enroll, replay, the PATCHes of webhooks and enrollments).
    const doc = (await call('GET', '/api/v1/openapi.json')).body as any;
    const { key } = await newOrganizationWithKey(['read', 'write', 'admin']);
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths) as [string, Record<string, any>][]) {
      for (const [method, op] of Object.entries(item)) {
        if (!op.requestBody) continue;
        checked++;
        const where = `${method.toUpperCase()} ${path}`;
        assert.equal(op.requestBody.content['application/json'].schema.additionalProperties, false, where);
        const res = await call(method.toUpperCase(), `/api/v1${samplePath(path, op)}`, { key, body: { notAField: 1 } });
        assert.equal(res.status, 422, `${where}: ${res.text}`);
        assert.ok(res.body.error.details.some((d: { path: string }) => d.path === 'notAField'), `${where}: ${res.text}`);
      }
    }
    assert.ok(checked >= 13, `only ${checked} request bodies`);
  });

  it('makes a request body optional exactly where the server takes a request without one (found by schemathesis)', async () => {
    const doc = (await call('GET', '/api/v1/openapi.json')).body as any;
    const { key } = await newOrganizationWithKey(['read', 'write', 'admin']);
    const candidate = await call('POST', '/api/v1/candidates', { key, body: { email: `nobody-${unique()}@example.com`, name: 'No Body' } });
    const position = await call('POST', '/api/v1/positions', { key, body: { title: 'No body' } });
    // A completed interview, so that a re-run of its evaluation (body optional: `rubric` defaults to pinned) is accepted.
    const interview = await schedule(key, position.body.data.id);
    await startInvite(tokenOf(interview.inviteUrl));
    await submitInvite(tokenOf(interview.inviteUrl), ['One.', 'Two.', 'Three.', 'Four.']);
    // A scheduled interview, so that a cancel (its body, like its query, optional) is accepted.
    const cancellable = await schedule(key, position.body.data.id);
    const existing: Record<string, string> = { '/candidates/{id}': candidate.body.data.id, '/positions/{id}': position.body.data.id, '/interviews/{id}/evaluation/rerun': interview.id, '/interviews/{id}': cancellable.id };
    const optional: string[] = [];
    for (const [path, item] of Object.entries(doc.paths) as [string, Record<string, any>][]) {
      for (const [method, op] of Object.entries(item)) {
        if (!op.requestBody) continue;
        const where = `${method.toUpperCase()} ${path}`;
        const url = existing[path] ? path.replace('{id}', existing[path]) : samplePath(path, op);
        const res = await call(method.toUpperCase(), `/api/v1${url}`, { key });
        if (op.requestBody.required === false) {
          optional.push(where);
          assert.ok(res.status === 200 || res.status === 202, `${where} without a body: ${res.status} ${res.text}`);
        } else assert.equal(res.status, 422, `${where} without a body: ${res.text}`);
      }
    }
    assert.deepEqual(optional.sort(), ['DELETE /interviews/{id}', 'PATCH /candidates/{id}', 'PATCH /positions/{id}', 'POST /interviews/{id}/evaluation/rerun']);
  });

  it('keeps error bodies within the published Error limits, even for a very long path', async () => {
    const doc = (await call('GET', '/api/v1/openapi.json')).body as any;
    const { key } = await newOrganizationWithKey(['read']);
    const res = await call('GET', `/api/v1/${'a'.repeat(5000)}`, { key });
    assert.equal(res.status, 404);
    const max = doc.components.schemas.Error.properties.error.properties.message.maxLength as number;
    assert.ok(res.body.error.message.length <= max, `message of ${res.body.error.message.length} characters`);
  });
});

describe('GET /developers/reference', () => {
  it('renders the document with assets served locally: no external URL in the page', async () => {
    const res = await call('GET', '/developers/reference');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(res.text, /\/api\/v1\/openapi\.json/);
    const urls = res.text.match(/(?:src|href|spec-url)="([^"]+)"/g) ?? [];
    for (const u of urls) assert.doesNotMatch(u, /"(https?:)?\/\//, `external asset ${u}`);
    assert.doesNotMatch(res.text, /https?:\/\//);
    const script = res.text.match(/<script src="([^"]+)"/)![1]!;
    const asset = await call('GET', script);
    assert.equal(asset.status, 200);
    assert.ok(asset.text.length > 100_000, 'the Redoc bundle is served');
  });
});
