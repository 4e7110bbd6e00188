import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { CONTENT_ENCODINGS, CONTENT_TYPES, NASTY_BODIES, NASTY_HEADER_VALUES, NASTY_PATH_SEGMENTS, NASTY_QUERY_VALUES } from './corpus.js';
import { arbitraryFor, broken, type JsonSchema, type KnownIds } from './schema-arbitrary.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

interface Parameter { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: JsonSchema }
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}
export interface OpenApiDocument { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, JsonSchema> } }

/** One operation of the document, with what the suite needs to build and check its requests. */
export interface ApiOperation { method: string; path: string; op: Operation }

export interface HostileRequest {
  label: string;
  method: string;
  /** Path and query, percent-encoded as sent. */
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export function operationsOf(doc: OpenApiDocument): ApiOperation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
}

/** Validators for the document's schemas: the Error schema and each operation's responses. */
export function validatorsFor(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'https://hireloop.test/openapi.json', components: doc.components });
  const cache = new Map<string, ValidateFunction>();
  const compile = (schema: JsonSchema) => {
    const key = JSON.stringify(schema);
    let fn = cache.get(key);
    if (!fn) {
      const rebased = JSON.parse(key.replaceAll('"#/components/', '"https://hireloop.test/openapi.json#/components/')) as object;
      fn = ajv.compile(rebased);
      cache.set(key, fn);
    }
    return fn;
  };
  const error = compile({ $ref: '#/components/schemas/Error' });
  return {
    /**
     * Fails unless `body` is a valid error envelope whose requestId is the X-Request-Id (pass
     * undefined for an idempotent replay: its body is the first response's, with that request's id).
     */
    assertError(body: unknown, requestId: string | null | undefined, label: string) {
      assert.ok(error(body), `${label}: the error body breaks the Error schema: ${ajv.errorsText(error.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
      if (requestId !== undefined) assert.equal((body as { error: { requestId: string } }).error.requestId, requestId, `${label}: requestId differs from X-Request-Id`);
    },
    /** Fails unless a success status is documented for `op` and `body` validates against it. */
    assertSuccess(op: Operation, status: number, body: unknown, label: string) {
      const response = op.responses[String(status)];
      assert.ok(response, `${label}: status ${status} is not documented`);
      const schema = response.content?.['application/json']?.schema;
      if (!schema) return;
      const validate = compile(schema);
      assert.ok(validate(body), `${label}: the ${status} body breaks its schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
    },
  };
}

const resolver = (doc: OpenApiDocument) => (ref: string) => {
  const name = ref.replace('#/components/schemas/', '');
  const schema = doc.components.schemas[name];
  assert.ok(schema, `unknown $ref ${ref}`);
  return schema;
};

const encodeValue = (v: unknown) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ed%a0%80'; // a lone surrogate cannot be percent-encoded; send its UTF-8 form, invalid too
  }
};

/**
 * Requests for one operation, built from its schemas and then broken: path ids (real, generated,
 * percent garbage), query values (valid, of the wrong kind, garbage), a body (valid, broken, or
 * raw nasty bytes) and its headers (content types, charsets, encodings, Idempotency-Key).
 */
export function requestArbitrary(doc: OpenApiDocument, { method, path, op }: ApiOperation, known: KnownIds, key: string): fc.Arbitrary<HostileRequest> {
  const resolve = resolver(doc);
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content['application/json']?.schema;

  const pathValue = (p: Parameter) =>
    fc.oneof(
      { arbitrary: arbitraryFor(p.schema, resolve, known).map((v) => encodeValue(v)), weight: 3 },
      { arbitrary: fc.constantFrom(...NASTY_PATH_SEGMENTS), weight: 1 },
    );
  const queryValue = (p: Parameter) =>
    fc.oneof(
      { arbitrary: arbitraryFor(p.schema, resolve, known).map((v) => encodeValue(v)), weight: 3 },
      { arbitrary: fc.constantFrom(...NASTY_QUERY_VALUES), weight: 1 },
    );
  const query = fc.tuple(
    fc.tuple(...queryParams.map((p) => fc.option(queryValue(p), { nil: undefined, freq: 2 }))),
    fc.option(fc.tuple(fc.constantFrom('limit', 'x', '%ff', '%00', 'cursor', 'limit[]', '__proto__'), fc.constantFrom(...NASTY_QUERY_VALUES)), { nil: undefined, freq: 4 }),
  ).map(([values, extra]) => {
    const parts = queryParams.flatMap((p, i) => (values[i] === undefined ? [] : [`${p.name}=${values[i]}`]));
    if (extra) parts.push(`${extra[0]}=${extra[1]}`);
    return parts.length ? `?${parts.join('&')}` : '';
  });

  const body: fc.Arbitrary<{ bytes?: Buffer; name: string }> = bodySchema
    ? fc.oneof(
        { arbitrary: broken(arbitraryFor(bodySchema, resolve, known)).map((v) => ({ bytes: v === undefined ? undefined : Buffer.from(JSON.stringify(v) ?? ''), name: 'json' })), weight: 6 },
        { arbitrary: fc.constantFrom(...NASTY_BODIES).map((b) => ({ bytes: b.bytes, name: b.name })), weight: 1 },
      )
    : fc.oneof({ arbitrary: fc.constant({ name: 'none' }), weight: 6 }, { arbitrary: fc.constantFrom(...NASTY_BODIES).map((b) => ({ bytes: b.bytes, name: b.name })), weight: 1 });

  const headers = fc.record({
    type: fc.oneof({ arbitrary: fc.constant('application/json'), weight: 4 }, { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 1 }),
    encoding: fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: fc.constantFrom(...CONTENT_ENCODINGS), weight: 1 }),
    gzip: fc.boolean(),
    idempotencyKey: fc.option(fc.oneof(fc.uuid(), fc.constantFrom(...NASTY_HEADER_VALUES)), { nil: undefined, freq: 3 }),
    requestId: fc.option(fc.constantFrom(...NASTY_HEADER_VALUES), { nil: undefined, freq: 5 }),
  });

  return fc.tuple(fc.tuple(...pathParams.map(pathValue)), query, body, headers).map(([ids, search, b, h]) => {
    let url = path;
    pathParams.forEach((p, i) => (url = url.replace(`{${p.name}}`, ids[i]!)));
    url = `/api/v1${url}${search}`;
    const sent: Record<string, string> = { authorization: `Bearer ${key}` };
    let bytes = method === 'GET' ? undefined : b.bytes;
    if (bytes !== undefined) {
      if (h.type) sent['content-type'] = h.type;
      if (h.encoding) {
        sent['content-encoding'] = h.encoding;
        if (h.gzip && /gzip/i.test(h.encoding)) bytes = gzipSync(bytes);
      }
    }
    if (h.idempotencyKey !== undefined && method === 'POST') sent['idempotency-key'] = h.idempotencyKey;
    if (h.requestId !== undefined) sent['x-request-id'] = h.requestId;
    const label = `${method} ${url.slice(0, 200)} [body: ${b.name}${bytes ? `, ${bytes.length} B` : ''}; ${JSON.stringify({ ...sent, authorization: undefined }).slice(0, 200)}]`;
    return { label, method, url, headers: sent, body: bytes, [fc.toStringMethod]: () => label };
  });
}

export interface SentResponse { status: number; headers: Headers; text: string; body: unknown }

export async function send(baseUrl: string, req: HostileRequest): Promise<SentResponse> {
  const res = await fetch(`${baseUrl}${req.url}`, { method: req.method, headers: req.headers, body: req.body ? new Uint8Array(req.body) : undefined, redirect: 'manual' });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* checked by the caller */
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** The checks of issue 7 on one /api/v1 answer: never a 5xx, and every body as documented. */
export function checkApiAnswer(validators: ReturnType<typeof validatorsFor>, op: Operation, req: HostileRequest, res: SentResponse): void {
  assert.ok(res.status < 500, `${req.label}: ${res.status} ${res.text.slice(0, 500)}`);
  if (res.status >= 400) {
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/, `${req.label}: ${res.status} without JSON`);
    validators.assertError(res.body, res.headers.get('idempotent-replayed') === 'true' ? undefined : res.headers.get('x-request-id'), req.label);
  } else if (res.status !== 204) {
    validators.assertSuccess(op, res.status, res.body, req.label);
  }
}
