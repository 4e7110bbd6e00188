import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import { ERROR_STATUS, ErrorBody, type ErrorCode } from '@hireloop/contracts';
import type { ProcedureMeta } from '@hireloop/platform';
import { restRouter } from './router.js';

const DESCRIPTION = `The Hireloop public API for applicant-tracking systems.

Authenticate with an organization API key: \`Authorization: Bearer hl_…\`. Each route needs exactly
the scope named on it (\`read\`, \`write\` or \`admin\`; scopes are independent).
Successful responses are \`{"data": …}\`; errors are \`{"error": {"code", "message", "requestId", "details"?}}\`.
Every response carries \`X-Request-Id\` and the rate-limit headers \`RateLimit-Policy\`, \`RateLimit\`,
\`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\` (120 requests per 60 s by default).
POST routes accept \`Idempotency-Key\` (≤ 255 characters): the first response is replayed for 24 h
with \`Idempotent-Replayed: true\`. Lists are newest first with keyset pagination (\`limit\`, \`cursor\`,
\`Link: rel="next"\`).`;

/** Which error codes each status can carry, for the per-route error documentation. */
function codesFor(status: number): ErrorCode[] {
  return (Object.entries(ERROR_STATUS) as [ErrorCode, number][]).filter(([, s]) => s === status).map(([c]) => c);
}

const COMMON_ERRORS = [401, 403, 422, 429, 500, 503];
const BODY_ERRORS = [400, 409, 413, 415];

function errorResponse(status: number) {
  return {
    description: `Error: ${codesFor(status).map((c) => `\`${c}\``).join(', ')}`,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

const RATE_LIMIT_HEADERS = {
  'X-Request-Id': { description: 'Echoes a well-formed incoming X-Request-Id, else a new `req_…`', schema: { type: 'string' } },
  RateLimit: { description: 'Remaining requests and seconds until the bucket is full', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'The key\'s quota and window', schema: { type: 'string' } },
  'X-RateLimit-Limit': { schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Epoch seconds when the bucket is full again', schema: { type: 'integer' } },
};

type Operation = {
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: unknown }>;
  security?: unknown[];
  description?: string;
  parameters?: unknown[];
  'x-required-scope'?: string;
};

/**
 * The OpenAPI 3.1 document, generated from the REST router's procedures (their zod schemas and
 * meta), then given our error envelope, the scope of every route and the rate-limit headers.
 */
export function buildOpenApiDocument(baseUrl: string): OpenAPIObject {
  const doc = generateOpenApiDocument(restRouter, {
    title: 'Hireloop API',
    version: '1.0.0',
    description: DESCRIPTION,
    baseUrl: `${baseUrl}/api/v1`,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Organization API key, `hl_…`' } },
  });
  const procedures = restRouter._def.procedures as Record<string, { _def: { meta?: ProcedureMeta } }>;
  const metaByRoute = new Map<string, ProcedureMeta>();
  for (const p of Object.values(procedures)) {
    const meta = p._def.meta;
    if (meta?.openapi) metaByRoute.set(`${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`, meta);
  }
  doc.components ??= {};
  doc.components.schemas ??= {};
  // The library's own error schemas are replaced by our envelope on every operation below.
  for (const name of Object.keys(doc.components.schemas)) if (name.startsWith('error.')) delete doc.components.schemas[name];
  const { $schema: _dialect, ...errorSchema } = z.toJSONSchema(ErrorBody, { target: 'draft-2020-12' });
  doc.components.schemas['Error'] = errorSchema as never;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      const meta = metaByRoute.get(`${method} ${path}`);
      const scope = meta?.scope;
      const success = Object.entries(op.responses)
        .filter(([status]) => status.startsWith('2'))
        .map(([status, response]): [string, Operation['responses'][string]] =>
          meta?.successStatus === 204 ? ['204', { description: response.description }] : [String(meta?.successStatus ?? status), response],
        );
      const extra = Array.isArray(meta?.openapi?.errorResponses) ? meta.openapi.errorResponses : [];
      const statuses = new Set([...COMMON_ERRORS, ...(method === 'post' ? BODY_ERRORS : []), ...extra]);
      op.responses = Object.fromEntries([
        ...success.map(([status, response]) => [status, { ...response, headers: RATE_LIMIT_HEADERS }]),
        ...[...statuses].sort().map((s) => [String(s), errorResponse(s)]),
      ]);
      op.security = [{ bearer: [] }];
      op['x-required-scope'] = scope;
      op.description = `${op.description ?? ''}\n\nRequired scope: \`${scope}\`.`.trim();
      if (method === 'post') {
        op.parameters = [
          ...(op.parameters ?? []),
          { name: 'Idempotency-Key', in: 'header', required: false, description: 'Makes a retry safe: the first response is replayed for 24 h.', schema: { type: 'string', maxLength: 255 } },
        ];
      }
    }
  }
  return doc;
}
