import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, newKey, newOrganizationWithKey, type ApiResponse } from '@hireloop/devstack/testing';
import { createDb, createLogger, createPool, SecretBox } from '@hireloop/platform';
import { createGatewayApp } from '../src/app.js';
import { loadGatewayConfig } from '../src/config.js';
import type { GatewayDB } from '../src/db.js';
import { createServiceClients, type ServiceClients } from '../src/services.js';
import { restRouter } from '../src/rest/router.js';
import { routeTableOf, type RouteTable } from '../src/rest/route-table.js';
import { assertError, assertValidation, unique } from './api-assertions.js';

/**
 * The gateway's own dispatch of /api/v1 (rest/dispatch.ts), run in this process on the test
 * stack's services and database, so the test can count what happens inside one request: how often
 * its route is matched, and which service calls the route makes for its caller.
 */

/** A client made by `forCaller`, counting every query and mutation made through it. */
function counted<T extends object>(client: T, onCall: () => void): T {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (prop === 'query' || prop === 'mutate') {
        return (...args: unknown[]) => {
          onCall();
          return (value as (...a: unknown[]) => unknown)(...args);
        };
      }
      return (typeof value === 'function' || (typeof value === 'object' && value !== null)) ? counted(value as object, onCall) : value;
    },
  });
}

interface InProcessGateway {
  url: string;
  db: ReturnType<typeof createDb<GatewayDB>>;
  /** Route matches since the last `reset()`. */
  matches: () => number;
  /** Service calls made for an API caller (the key check is not one) since the last `reset()`. */
  serviceCalls: () => number;
  reset: () => void;
  close: () => Promise<void>;
}

async function inProcessGateway(): Promise<InProcessGateway> {
  const config = loadGatewayConfig();
  const pool = createPool({ url: config.DATABASE_URL, applicationName: 'dispatch-test', max: 4 });
  const db = createDb<GatewayDB>(pool);
  const real = createServiceClients({ identity: config.IDENTITY_URL, recruiting: config.RECRUITING_URL, integrations: config.INTEGRATIONS_URL }, config.INTERNAL_TOKEN_KEYS);
  let matches = 0;
  let serviceCalls = 0;
  const services: ServiceClients = { ...real, forCaller: (c) => counted(real.forCaller(c), () => serviceCalls++) };
  const table = routeTableOf(restRouter);
  const countingTable: RouteTable = {
    routes: table.routes,
    match: (method, url) => {
      matches++;
      return table.match(method, url);
    },
  };
  const app = createGatewayApp({
    services,
    serviceUrls: { identity: config.IDENTITY_URL, recruiting: config.RECRUITING_URL, integrations: config.INTEGRATIONS_URL },
    db,
    logger: createLogger('dispatch-test', 'error'),
    publicBaseUrl: 'http://127.0.0.1',
    internalTokenKeys: config.INTERNAL_TOKEN_KEYS,
    storedResponses: new SecretBox(config.STORED_RESPONSE_KEYS),
    sessionTtlHours: 1,
    trustProxy: false,
    temporalUiUrl: '',
    ready: async () => undefined,
    routes: countingTable,
  });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    db,
    matches: () => matches,
    serviceCalls: () => serviceCalls,
    reset: () => {
      matches = 0;
      serviceCalls = 0;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await db.destroy();
    },
  };
}

/** TRACE through node:http: fetch refuses to send it. */
function trace(url: string, key: string): Promise<ApiResponse<any>> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'TRACE', headers: { authorization: `Bearer ${key}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const headers = new Headers(Object.entries(res.headers).map(([n, v]): [string, string] => [n, Array.isArray(v) ? v.join(', ') : String(v)]));
        resolve({ status: res.statusCode ?? 0, headers, text, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the /api/v1 dispatcher (rest/dispatch.ts)', () => {
  let gw: InProcessGateway;
  let key: string;
  let positionId: string;
  before(async () => {
    gw = await inProcessGateway();
    key = (await newOrganizationWithKey(['read', 'write', 'admin'])).key;
    const position = await call('POST', '/api/v1/positions', { key, body: { title: 'Dispatch' } });
    assert.equal(position.status, 201, position.text);
    positionId = position.body.data.id;
  });
  after(() => gw.close());

  const send = (method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    method === 'TRACE' ? trace(`${gw.url}/api/v1${path}`, options.key ?? key) : call(method, `/api/v1${path}`, { key, ...options, baseUrl: gw.url });

  it('a route is matched once per request, whatever answers it', async () => {
    const idem = { 'idempotency-key': `match-once-${unique()}` };
    const requests: [string, string, { body?: unknown; headers?: Record<string, string> }, number][] = [
      ['GET', '/me', {}, 200],
      ['HEAD', '/me', {}, 200],
      ['GET', `/positions/${positionId}`, {}, 200],
      ['GET', '/positions?limit=1', {}, 200],
      ['POST', '/positions', { body: { title: 'Matched once' }, headers: idem }, 201],
      ['POST', '/positions', { body: { title: 'Matched once' }, headers: idem }, 201], // the replay
      ['POST', '/positions', { body: { title: 42 } }, 422],
      ['PATCH', `/positions/${positionId}?title=x`, { body: { title: 'Query' } }, 422],
      ['PATCH', `/positions/${positionId}/`, { body: { title: 'Trailing slash' } }, 200],
      ['GET', '/nowhere', {}, 404],
      ['DELETE', '/me', {}, 405],
    ];
    for (const [method, path, options, status] of requests) {
      gw.reset();
      const res = await send(method, path, options);
      assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
      assert.equal(gw.matches(), 1, `${method} ${path} was matched ${gw.matches()} times`);
    }
  });

  it('an unknown route is 404 route_not_found with no service call, and nothing is kept under its Idempotency-Key', async () => {
    const idemKey = `unknown-route-${unique()}`;
    for (const [method, path] of [['GET', '/nothing-here'], ['POST', '/nothing-here'], ['GET', '/positions/x/y/z'], ['PATCH', '/candidates']] as const) {
      gw.reset();
      const res = await send(method, path, { body: method === 'GET' ? undefined : { title: 'x' }, headers: { 'idempotency-key': idemKey } });
      if (path === '/candidates') {
        assertError(res, 405, 'route_not_found'); // a path that exists: see the 405 rule below
      } else {
        assertError(res, 404, 'route_not_found');
        assert.match(res.body.error.message, new RegExp(`${method} /api/v1${path}`));
      }
      assert.equal(gw.serviceCalls(), 0, `${method} ${path} called a service`);
    }
    const kept = await gw.db.selectFrom('gateway.idempotency_keys').select('path').where('idempotency_key', '=', idemKey).execute();
    assert.deepEqual(kept, []);
  });

  it('a path parameter repeated in the body or query is 422 naming it, with no service call; 403 first without the scope', async () => {
    const cases: [string, string, unknown][] = [
      ['PATCH', `/positions/${positionId}`, { id: positionId, title: 'Renamed' }],
      ['PATCH', `/positions/${positionId}`, { id: 'pos_000000000000000000000000' }],
      ['GET', `/positions/${positionId}?id=${positionId}`, undefined],
      ['DELETE', `/webhooks/wh_00000000000000000000?id=wh_00000000000000000000`, undefined],
      ['POST', `/interviews/int_000000000000000000000000/evaluation/review`, { id: 'int_000000000000000000000000', decision: 'advance' }],
    ];
    for (const [method, path, body] of cases) {
      gw.reset();
      const res = await send(method, path, { body });
      assertValidation(res, 'id');
      assert.equal(gw.serviceCalls(), 0, `${method} ${path} called a service`);
    }
    const { organization } = await newOrganizationWithKey(['read']);
    const readOnly = (await newKey(organization.id, ['read'])).key;
    for (const [method, path, body] of cases.filter(([m]) => m !== 'GET')) {
      assertError(await send(method, path, { key: readOnly, body }), 403, 'insufficient_scope');
    }
    const writeOnly = (await newKey(organization.id, ['write'])).key;
    assertError(await send('GET', `/positions/${positionId}?id=${positionId}`, { key: writeOnly }), 403, 'insufficient_scope');
    assert.notEqual((await call('GET', `/api/v1/positions/${positionId}`, { key })).body.data.title, 'Renamed', 'nothing was renamed');
  });

  it('a known path with a method it does not serve is 405 route_not_found with Allow naming its methods; an unknown path stays 404', async () => {
    const cases: [string, string, string][] = [
      ['TRACE', '/me', 'GET, HEAD'],
      ['POST', '/me', 'GET, HEAD'],
      ['PUT', '/candidates', 'GET, HEAD, POST'],
      ['PUT', '/webhooks/wh_00000000000000000000', 'GET, HEAD, PATCH, DELETE'],
      ['GET', '/webhooks/wh_00000000000000000000/test', 'POST'],
      ['HEAD', '/webhooks/wh_00000000000000000000/test', 'POST'],
      ['DELETE', '/POSITIONS/', 'GET, HEAD, POST'],
    ];
    for (const [method, path, allow] of cases) {
      gw.reset();
      const res = await send(method, path, { body: method === 'POST' || method === 'PUT' ? {} : undefined });
      assert.equal(res.status, 405, `${method} ${path}: ${res.text}`);
      assert.equal(res.headers.get('allow'), allow, `${method} ${path}`);
      if (method !== 'HEAD') {
        assertError(res, 405, 'route_not_found');
        for (const m of allow.split(', ')) assert.match(res.body.error.message, new RegExp(`\\b${m}\\b`), res.body.error.message);
      }
      assert.equal(gw.serviceCalls(), 0);
    }
    assertError(await send('TRACE', '/nothing-here'), 404, 'route_not_found');
    // Authentication still comes first: no key, no hint about the path's methods.
    const anonymous = await call('DELETE', '/api/v1/me', { baseUrl: gw.url });
    assertError(anonymous, 401, 'missing_api_key');
    assert.equal(anonymous.headers.get('allow'), null);
  });
});
