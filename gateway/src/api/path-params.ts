import type { Request } from 'express';
import { AppError } from '@hireloop/platform';
import { matchApiRoute } from '../rest/canonical-path.js';
import { locals } from '../request-context.js';

/**
 * trpc-to-openapi merges the path parameters over the query (or the body) into one input, so
 * `PATCH /webhooks/{id}` with a body `{"id": …}`, or `?id=` on `GET /webhooks/{id}`, would pass
 * the strict schema and be silently overruled by the path. The published document lists neither
 * (unknown query parameters and body fields are 422, PRODUCT.md §5, `additionalProperties: false`):
 * this refuses them as the schema refuses any unknown field. `req.path` is relative to /api/v1.
 * A key without the route's scope goes on to its 403 first, as with any other invalid input.
 */
export function misplacedPathParams(req: Request): AppError | null {
  const route = matchApiRoute(req.method === 'HEAD' ? 'GET' : req.method, req.path);
  if (!route?.scope || !locals(req).caller?.scopes.includes(route.scope)) return null;
  const body: unknown = req.body;
  const inBody = (name: string) => typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, name);
  const found = Object.keys(route.params).filter((name) => Object.hasOwn(req.query as object, name) || inBody(name));
  if (found.length === 0) return null;
  return new AppError('validation_failed', 'The request names a path parameter in its query or body.', found.map((name) => ({ path: name, message: 'unknown field or parameter' })));
}
