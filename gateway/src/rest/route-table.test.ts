import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { envelope } from '@hireloop/contracts';
import { apiProcedure, router } from './trpc.js';
import { restRouter } from './router.js';
import { decodeUnreserved, routeTableOf, routingPath, type RouteMatch } from './route-table.js';

const table = routeTableOf(restRouter);
const routeOf = (match: RouteMatch) => (match.kind === 'route' ? `${match.route.method} ${match.route.template}` : match.kind);

describe('the /api/v1 route table (route-table.ts)', () => {
  it('holds every procedure of the REST router that has meta.openapi, each with its scope', () => {
    const withOpenApi = Object.values(restRouter._def.procedures as Record<string, { _def: { meta?: { openapi?: unknown } } }>).filter((p) => p._def.meta?.openapi);
    assert.equal(table.routes.length, withOpenApi.length);
    for (const route of table.routes) assert.ok(['read', 'write', 'admin'].includes(route.meta.scope), route.template);
  });

  it('matches a path as the document spells it, with its parameters, and gives the route\'s one spelling of the path', () => {
    const id = 'wh_AbC0000000000000000';
    const match = table.match('GET', `/webhooks/${id}/deliveries/dlv_x1?limit=5`);
    assert.equal(routeOf(table.match('GET', `/webhooks/${id}/deliveries`)), 'GET /webhooks/{id}/deliveries');
    assert.equal(match.kind, 'none', 'a deeper path is no route');
    const attempts = table.match('GET', `/Webhooks/${id}/DELIVERIES/dlv_x1/attempts/`);
    assert.equal(routeOf(attempts), 'GET /webhooks/{id}/deliveries/{deliveryId}/attempts');
    assert.ok(attempts.kind === 'route');
    assert.deepEqual(attempts.params, { id, deliveryId: 'dlv_x1' }, 'parameters keep their case');
    assert.equal(attempts.path, `/webhooks/${id}/deliveries/dlv_x1/attempts`);
  });

  it('resolves dot segments and drops one outer slash, as the WHATWG URL parser does', () => {
    for (const url of ['/positions', '/positions/', '/POSITIONS', '/./positions', '/x/../positions', '/x/%2e%2e/positions']) {
      const match = table.match('POST', url);
      assert.equal(routeOf(match), 'POST /positions', url);
      assert.equal(match.path, '/positions', url);
    }
    for (const url of ['/positions//', '//positions', '/positions/x/y']) assert.equal(table.match('GET', url).kind, 'none', url);
  });

  it('reads a percent-encoded unreserved character as itself (RFC 3986 §6.2.2.2), in fixed segments and parameters alike', () => {
    assert.equal(routeOf(table.match('GET', '/m%65')), 'GET /me');
    assert.equal(routeOf(table.match('GET', '/candid%61tes?limit=1')), 'GET /candidates');
    const candidate = table.match('GET', '/candidates/cand%5FAbC%30000000001');
    assert.ok(candidate.kind === 'route');
    assert.deepEqual(candidate.params, { id: 'cand_AbC0000000001' });
    assert.equal(candidate.path, '/candidates/cand_AbC0000000001', 'one spelling of the path (the idempotency scope)');
    // Reserved and other characters keep their escapes: %2F is not a segment's end.
    assert.equal(table.match('GET', '/candidates%2Fcand_AbC0000000001').kind, 'none');
    assert.equal(decodeUnreserved('/a%2Fb%20c%7e%2D%2e'), '/a%2Fb%20c~-.');
  });

  it('reads a plain path as the URL parser would', () => {
    const paths = ['/me', '/candidates/cand_AbC0000000001', '/webhooks/wh_0000000000/deliveries/dlv_x/attempts', "/a-_~!$&'()*+,;=:@/b", '/positions//', '//positions', '/a%41/%2F', '/a%2e', '/a/%2E%2E/b', '/a/./b', '/a/.b', '/x{y}', '/é', '/a#b', '/a\\b'];
    for (const path of paths) {
      const parsed = new URL(`http://h${path}`).pathname;
      assert.equal(routingPath(`${path}?q=1`), `/${parsed.replace(/^\/|\/$/g, '')}`, path);
    }
  });

  it('reads a request target in absolute form for its path (RFC 9112 §3.2.2)', () => {
    assert.equal(routeOf(table.match('GET', 'http://api.example/me')), 'GET /me');
    assert.equal(table.match('GET', 'not a url').kind, 'none');
  });

  it('routes HEAD as the GET', () => {
    assert.equal(routeOf(table.match('HEAD', '/me')), 'GET /me');
  });

  it('a known path with other methods only is method_not_allowed, listing them in a fixed order; an unknown path is none', () => {
    assert.deepEqual(table.match('DELETE', '/me'), { kind: 'method_not_allowed', allow: ['GET', 'HEAD'], path: '/me' });
    assert.deepEqual(table.match('PUT', '/candidates'), { kind: 'method_not_allowed', allow: ['GET', 'HEAD', 'POST'], path: '/candidates' });
    const webhook = table.match('POST', '/webhooks/wh_0000000000');
    assert.ok(webhook.kind === 'method_not_allowed');
    assert.deepEqual(webhook.allow, ['GET', 'HEAD', 'PATCH', 'DELETE']);
    assert.deepEqual(table.match('HEAD', '/webhooks/wh_0000000000/test'), { kind: 'method_not_allowed', allow: ['POST'], path: '/webhooks/wh_0000000000/test' });
    assert.equal(table.match('TRACE', '/nothing-here').kind, 'none');
  });

  it('a fixed segment wins over a parameter in the same place, whatever the declaration order', () => {
    const out = envelope(z.object({ ok: z.boolean() }));
    const byId = apiProcedure.meta({ scope: 'read', openapi: { method: 'GET', path: '/things/{id}' } }).input(z.object({ id: z.string() })).output(out).query(() => ({ data: { ok: true } }));
    const stats = apiProcedure.meta({ scope: 'read', openapi: { method: 'GET', path: '/things/stats' } }).input(z.object({})).output(out).query(() => ({ data: { ok: true } }));
    const routes = routeTableOf(router({ byId, stats }));
    assert.equal(routeOf(routes.match('GET', '/things/stats')), 'GET /things/stats');
    assert.equal(routeOf(routes.match('GET', '/things/thing_1')), 'GET /things/{id}');
  });

  it('refuses to build with a public route that has no scope: it would be open', () => {
    const open = apiProcedure.meta({ openapi: { method: 'GET', path: '/open' } }).input(z.object({})).output(z.object({})).query(() => ({}));
    assert.throws(() => routeTableOf(router({ open })), /has no scope/);
  });
});
