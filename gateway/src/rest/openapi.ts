import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import { ERROR_STATUS, ErrorBody, IdempotencyKey, RequestId, type ErrorCode } from '@hireloop/contracts';
import type { ProcedureMeta } from '@hireloop/platform';
import { restRouter } from './router.js';

const DESCRIPTION = `The Hireloop public API for applicant-tracking systems.

Authenticate with an organization API key: \`Authorization: Bearer hl_…\`. Each route needs exactly
the scope named on it (\`read\`, \`write\` or \`admin\`; scopes are independent).
Successful responses are \`{"data": …}\`; errors are \`{"error": {"code", "message", "requestId", "details"?}}\`.
Every response carries \`X-Request-Id\`; every response whose key was verified (all but 401) carries
the rate-limit headers \`RateLimit-Policy\`, \`RateLimit\`, \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`,
\`X-RateLimit-Reset\` (120 requests per 60 s by default). POST routes accept \`Idempotency-Key\`
(≤ 255 characters): the first response is replayed for 24 h with \`Idempotent-Replayed: true\`.
Lists are newest first with keyset pagination (\`limit\`, \`cursor\`, \`Link: rel="next"\`).
Every length, count and range the server enforces is in the schemas below.

The API is meant for servers: it sends no CORS headers, so browsers cannot call it.

v1 only adds: fields, routes, parameters and enum values are never removed or renamed, so ignore
fields you do not know. Every change is in the [API changelog](/developers/changelog).

# Terms
Use of the API is governed by your organization's Hireloop agreement.`;

/** A zod schema as it appears inside the document (no `$schema` line). */
function jsonSchema(schema: z.ZodType) {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12' });
  return rest;
}
const REQUEST_ID_SCHEMA = jsonSchema(RequestId);
const IDEMPOTENCY_KEY_SCHEMA = jsonSchema(IdempotencyKey);

/** Which error codes each status can carry, for the per-route error documentation. */
function codesFor(status: number): ErrorCode[] {
  return (Object.entries(ERROR_STATUS) as [ErrorCode, number][]).filter(([, s]) => s === status).map(([c]) => c);
}

const COMMON_ERRORS = [401, 403, 422, 429, 500, 503];
const BODY_ERRORS = [400, 409, 413, 415];
const READ_BODY_ERRORS = [400, 413, 415];

/** What a tag groups, for the reference's navigation. A route with a tag not named here fails the lint. */
const TAGS: { name: string; description: string }[] = [
  { name: 'Account', description: 'The calling API key: its organization and scopes.' },
  { name: 'Candidates', description: 'People in the hiring pipeline, unique per organization by e-mail (case-insensitive).' },
  { name: 'Positions', description: 'Open and closed roles, with the questions their AI interviews ask.' },
  { name: 'Interviews', description: 'AI interviews scheduled for a candidate and a position, and their evaluations.' },
  { name: 'Hiring flows', description: 'Stage pipelines made in the console; candidates are enrolled into them here.' },
  { name: 'Webhooks', description: 'Endpoints that receive signed events (Standard Webhooks).' },
  { name: 'Events', description: 'The organization\'s events of the last 30 days: the envelopes webhooks deliver, for reconciling.' },
  { name: 'AI', description: 'Asynchronous AI tasks, such as generating a job description.' },
  { name: 'ATS events', description: 'Inbound events from an applicant-tracking system (Greenhouse, Lever, …).' },
  { name: 'Audit events', description: 'Who did what, when: one event per write, from the API, the console and the operator CLIs, kept one year.' },
];

/**
 * The response headers the gateway sends (PRODUCT.md §3–§6), referenced from every response that
 * carries them. Values are the server's: see api/authenticate.ts, api/idempotency.ts, pagination.ts.
 */
const HEADERS = {
  XRequestId: { description: 'Echoes a well-formed incoming `X-Request-Id`, else a new `req_…`. On every response.', schema: REQUEST_ID_SCHEMA },
  RateLimit: {
    description: 'IETF draft: the requests left in the current window and the seconds until it refills, e.g. `"default";r=119;t=60`. On every response whose API key was verified.',
    schema: { type: 'string', maxLength: 64, pattern: '^"default";r=[0-9]{1,10};t=[0-9]{1,10}$' },
  },
  RateLimitPolicy: {
    description: 'IETF draft: the key\'s quota and window, e.g. `"default";q=120;w=60`. On every response whose API key was verified.',
    schema: { type: 'string', maxLength: 64, pattern: '^"default";q=[0-9]{1,10};w=[0-9]{1,10}$' },
  },
  XRateLimitLimit: { description: 'Requests allowed per window for this key.', schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 2_147_483_647 } },
  XRateLimitRemaining: { description: 'Requests left in the current window.', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 2_147_483_647 } },
  XRateLimitReset: { description: 'Epoch seconds when the window is full again.', schema: { type: 'integer', format: 'int64', minimum: 0, maximum: 253_402_300_799 } },
  RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 86_400 } },
  Location: { description: 'The path of the resource this request created (or of the task to poll).', schema: { type: 'string', format: 'uri-reference', maxLength: 2048 } },
  Link: {
    description: 'RFC 8288: the next page, `<https://…?cursor=…>; rel="next"`. Absent on the last page.',
    schema: { type: 'string', maxLength: 4096, pattern: '^<[^>]+>; rel="next"$' },
  },
  IdempotentReplayed: { description: '`true` when this is the stored response of an earlier request with the same `Idempotency-Key`.', schema: { type: 'string', enum: ['true'] } },
  WWWAuthenticate: {
    description: 'RFC 6750: the scheme to authenticate with, on every 401; `error="invalid_token"` when a key was sent but not accepted.',
    schema: { type: 'string', maxLength: 256, pattern: '^Bearer ' },
  },
} as const;
type HeaderName = keyof typeof HEADERS;
const WIRE_NAME: Record<HeaderName, string> = {
  XRequestId: 'X-Request-Id',
  RateLimit: 'RateLimit',
  RateLimitPolicy: 'RateLimit-Policy',
  XRateLimitLimit: 'X-RateLimit-Limit',
  XRateLimitRemaining: 'X-RateLimit-Remaining',
  XRateLimitReset: 'X-RateLimit-Reset',
  RetryAfter: 'Retry-After',
  Location: 'Location',
  Link: 'Link',
  IdempotentReplayed: 'Idempotent-Replayed',
  WWWAuthenticate: 'WWW-Authenticate',
};
const RATE_LIMIT: HeaderName[] = ['RateLimit', 'RateLimitPolicy', 'XRateLimitLimit', 'XRateLimitRemaining', 'XRateLimitReset'];
/** POST responses the idempotency layer stores and replays: those produced once the body was parsed and the route ran. */
const REPLAYABLE = (status: number) => status < 300 || [403, 404, 409, 422].includes(status);

/**
 * The headers one response carries (PRODUCT.md §3–§6): X-Request-Id always; the rate-limit fields
 * whenever the key was verified, i.e. on everything but 401; Retry-After on 429 and 503;
 * WWW-Authenticate on 401; Location and Link on the successes that set them; Idempotent-Replayed
 * on POST responses that can be replays.
 */
function headersFor(status: number, method: string, op: { location: boolean; paged: boolean }) {
  const names: HeaderName[] = ['XRequestId'];
  if (status === 401) names.push('WWWAuthenticate');
  else names.push(...RATE_LIMIT);
  if (status === 429 || status === 503) names.push('RetryAfter');
  if (status < 300 && op.location) names.push('Location');
  if (status < 300 && op.paged) names.push('Link');
  if (method === 'post' && REPLAYABLE(status)) names.push('IdempotentReplayed');
  return Object.fromEntries(names.map((n) => [WIRE_NAME[n], { $ref: `#/components/headers/${n}` }]));
}

function errorResponse(status: number, method: string) {
  return {
    description: `Error: ${codesFor(status).map((c) => `\`${c}\``).join(', ')}`,
    headers: headersFor(status, method, { location: false, paged: false }),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

/**
 * Drops `additionalProperties: false` from a response schema, in place (docs/api.md, "Versioning"):
 * v1 adds response fields (PRODUCT.md §9), and a client generated in strict mode would reject them.
 * Request bodies keep it: the server refuses unknown input fields, and says so.
 */
function openForAdditions(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(openForAdditions);
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema['additionalProperties'] === false) delete schema['additionalProperties'];
  Object.values(schema).forEach(openForAdditions);
}

/** A well-formed value for each path parameter (every id is `<prefix>_<10–40 alphanumerics>`). */
function samplePathParameters(parameters: unknown[]): Record<string, string> {
  return Object.fromEntries(
    (parameters as { in?: string; name: string; schema?: { pattern?: string } }[])
      .filter((p) => p.in === 'path')
      .map((p) => [p.name, `${/^\^([a-z]+_)/.exec(p.schema?.pattern ?? '')?.[1] ?? ''}0000000000`]),
  );
}

/** A zod object input that refuses unknown keys (`.strict()`, refined or not). */
function refusesUnknownFields(input: unknown): boolean {
  const def = (input as { _zod?: { def?: { type?: string; catchall?: { _zod?: { def?: { type?: string } } } } } } | undefined)?._zod?.def;
  return def?.type === 'object' && def.catchall?._zod?.def?.type === 'never';
}

type Response = { description: string; headers?: Record<string, unknown>; content?: unknown };
type Operation = {
  responses: Record<string, Response | { $ref: string }>;
  requestBody?: unknown;
  security?: unknown[];
  description?: string;
  parameters?: unknown[];
  'x-required-scope'?: string;
};

/**
 * The OpenAPI 3.1 document, generated from the REST router's procedures (their zod schemas, with
 * every limit the server enforces, and their meta), then completed the same way for every route:
 * our error envelope, the scope, the response headers (in `components.headers`), the tags.
 */
export function buildOpenApiDocument(baseUrl: string): OpenAPIObject {
  const doc = generateOpenApiDocument(restRouter, {
    title: 'Hireloop API',
    version: '1.0.0',
    description: DESCRIPTION,
    baseUrl: `${baseUrl}/api/v1`,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Organization API key, `hl_…`' } },
  });
  doc.info.contact = { name: 'Hireloop API support', url: `${baseUrl}/developers/reference` };
  doc.info.license = { name: 'Proprietary: use is governed by your Hireloop agreement', url: `${baseUrl}/developers/reference#section/Terms` };
  doc.servers = (doc.servers ?? []).map((server) => ({
    ...server,
    description: baseUrl.startsWith('https:') ? 'production' : 'local development stack',
    'x-internal': false,
  }));
  doc.tags = TAGS;
  const procedures = restRouter._def.procedures as Record<string, { _def: { meta?: ProcedureMeta; inputs?: unknown[] } }>;
  const metaByRoute = new Map<string, ProcedureMeta>();
  const strictByRoute = new Set<string>();
  const inputByRoute = new Map<string, z.ZodType>();
  for (const p of Object.values(procedures)) {
    const meta = p._def.meta;
    if (!meta?.openapi) continue;
    const route = `${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`;
    metaByRoute.set(route, meta);
    if ((p._def.inputs ?? []).some(refusesUnknownFields)) strictByRoute.add(route);
    const input = p._def.inputs?.[0];
    if (input instanceof z.ZodType) inputByRoute.set(route, input);
  }
  doc.components ??= {};
  doc.components.schemas ??= {};
  // The library's own error schemas are replaced by our envelope on every operation below.
  for (const name of Object.keys(doc.components.schemas)) if (name.startsWith('error.')) delete doc.components.schemas[name];
  doc.components.schemas['Error'] = jsonSchema(ErrorBody) as never;
  // Every component schema is a response's (request bodies are inline).
  openForAdditions(doc.components.schemas);
  doc.components.headers = HEADERS as never;
  // One 401 for every route: the key was not verified, so it has no rate-limit bucket (and no headers for it).
  doc.components.responses = { Unauthorized: errorResponse(401, 'get') as never };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      const meta = metaByRoute.get(`${method} ${path}`);
      const scope = meta?.scope;
      const shape = { location: Boolean(meta?.location), paged: (op.parameters ?? []).some((p) => (p as { name?: string }).name === 'cursor') };
      const success = (Object.entries(op.responses) as [string, Response][])
        .filter(([status]) => status.startsWith('2'))
        .map(([status, response]): [string, Response] =>
          meta?.successStatus === 204 ? ['204', { description: response.description }] : [String(meta?.successStatus ?? status), response],
        );
      // A DELETE's JSON body is read as its query (api/body.ts, rest/dispatch.ts): say so.
      const query = (op.parameters ?? []) as { in?: string; name: string; schema?: unknown; description?: string }[];
      if (method === 'delete' && !op.requestBody && query.some((p) => p.in === 'query')) {
        const properties = Object.fromEntries(query.filter((p) => p.in === 'query').map((p) => [p.name, { ...(p.schema as object), ...(p.description ? { description: p.description } : {}) }]));
        op.requestBody = { required: false, description: 'The query parameters may come as a JSON object instead (not both).', content: { 'application/json': { schema: { type: 'object', properties, additionalProperties: false } } } } as never;
      }
      const extra = Array.isArray(meta?.openapi?.errorResponses) ? meta.openapi.errorResponses : [];
      // Every request's body is read, with or without a documented one (api/body.ts): malformed
      // (400), too large (413) or not JSON (415) can be the answer of any route; and a POST's
      // Idempotency-Key can be in use (409).
      const statuses = new Set([...COMMON_ERRORS, ...(op.requestBody ? BODY_ERRORS : READ_BODY_ERRORS), ...(method === 'post' ? [409] : []), ...extra]);
      openForAdditions(op.responses);
      op.responses = Object.fromEntries([
        ...success.map(([status, response]) => [status, { ...response, headers: headersFor(Number(status), method, shape) }]),
        ...[...statuses].sort().map((s) => [String(s), s === 401 ? { $ref: '#/components/responses/Unauthorized' } : errorResponse(s, method)]),
      ]);
      // trpc-to-openapi rebuilds a refined input (a cross-field rule) as a plain object, which
      // loses `.strict()`: say again what the server does with an unknown field (schemathesis).
      const body = (op.requestBody as { content?: Record<string, { schema?: Record<string, unknown> }> } | undefined)?.content?.['application/json']?.schema;
      if (body && strictByRoute.has(`${method} ${path}`)) body['additionalProperties'] = false;
      // A cross-field rule the generator can read: exactly one of these fields.
      if (body && meta?.exactlyOneOf) body['oneOf'] = meta.exactlyOneOf.map((field) => ({ required: [field] }));
      if (body && meta?.atLeastOneOf) body['anyOf'] = meta.atLeastOneOf.map((field) => ({ required: [field] }));
      if (body && meta?.atMostOneOf) {
        const { fields, unlessEmpty = [] } = meta.atMostOneOf;
        body['not'] = { required: fields, ...(unlessEmpty.length ? { properties: Object.fromEntries(unlessEmpty.map((f) => [f, { minItems: 1 }])) } : {}) };
      }
      // A request without a body is read as `{}` (api/body.ts); where `{}` is a valid body
      // (a PATCH whose fields are all optional) the body is optional, and the document says so.
      const input = inputByRoute.get(`${method} ${path}`);
      if (body && input?.safeParse(samplePathParameters(op.parameters ?? [])).success) (op.requestBody as { required?: boolean }).required = false;
      op.security = [{ bearer: [] }];
      op['x-required-scope'] = scope;
      op.description = `${op.description ?? ''}\n\nRequired scope: \`${scope}\`.`.trim();
      if (method === 'post') {
        op.parameters = [
          ...(op.parameters ?? []),
          { name: 'Idempotency-Key', in: 'header', required: false, description: 'Makes a retry safe: the first response is replayed for 24 h.', schema: IDEMPOTENCY_KEY_SCHEMA },
        ];
      }
    }
  }
  return doc;
}
