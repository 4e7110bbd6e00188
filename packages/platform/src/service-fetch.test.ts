import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { createServiceClient, rethrowServiceError } from './service-client.js';
import { createServiceServer } from './service-server.js';
import { createServiceProcedures } from './trpc.js';
import { InternalTokenCache, SYSTEM_SUBJECT } from './internal-auth.js';
import { parseKeyRing } from './keys.js';
import { createLogger } from './logger.js';
import { AppError } from './errors.js';
import { integrationsEventSink } from './outbox-publisher.js';
import { bufferedFetch, serviceFetch } from './service-fetch.js';

/** The origin of a port that was just free: connections to it are refused. */
async function refusingOrigin(): Promise<string> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/**
 * Service calls go over node:http (service-fetch.ts), not the global fetch: what a caller
 * sees must not change. A real service server over HTTP: results and the AppError a service
 * throws come back as they were; a service that is down or answers something that is not tRPC
 * is `service_unavailable`; and connections are reused, whether or not a caller reads the answer.
 */
describe('service calls over node:http', () => {
  const keys = parseKeyRing(`k1:${'r'.repeat(32)}`, 'secret');
  const tokens = new InternalTokenCache(keys);
  const auth = { sub: SYSTEM_SUBJECT, org: null, scopes: [] };
  const { router, internalProcedure } = createServiceProcedures();
  const appRouter = router({
    echo: internalProcedure.input(z.object({ text: z.string() })).mutation(({ input }) => ({ echoed: input.text })),
    lookup: internalProcedure.input(z.object({ id: z.string() })).query(({ input }) => ({ id: input.id })),
    missing: internalProcedure.query((): string => {
      throw new AppError('not_found', 'No such thing.');
    }),
    'events.ingest': internalProcedure.input(z.object({ events: z.array(z.unknown()) })).mutation(({ input }) => ({ accepted: input.events.length })),
  });
  let server: Server;
  let url: string;
  const sockets = new Set<unknown>();
  before(async () => {
    server = createServiceServer({ name: 'fetch-test', router: appRouter, internalTokenKeys: keys, logger: createLogger('fetch-test', 'fatal'), ready: async () => undefined });
    server.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('mutations and queries return their results; non-ASCII text survives the round trip', async () => {
    const client = createServiceClient<typeof appRouter>(url, tokens);
    assert.deepEqual(await client({ auth }).echo.mutate({ text: 'Zoë Ångström 日本 😀' }), { echoed: 'Zoë Ångström 日本 😀' });
    assert.deepEqual(await client({ auth }).lookup.query({ id: 'a b&c=d' }), { id: 'a b&c=d' });
  });

  it('an AppError thrown by the service comes back as that AppError', async () => {
    const client = createServiceClient<typeof appRouter>(url, tokens);
    const error = await client({ auth }).missing.query().catch(rethrowServiceError).then(() => null, (err: unknown) => err);
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'not_found');
  });

  it('a service that refuses connections, or answers with something that is not tRPC, is service_unavailable', async () => {
    const down = createServiceClient<typeof appRouter>(await refusingOrigin(), tokens);
    const refused = await down({ auth }).lookup.query({ id: 'x' }).catch(rethrowServiceError).then(() => null, (err: unknown) => err);
    assert.ok(refused instanceof AppError);
    assert.equal(refused.code, 'service_unavailable');

    const proxy = createServer((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>'));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const behindProxy = createServiceClient<typeof appRouter>(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, tokens);
      const bad = await behindProxy({ auth }).lookup.query({ id: 'x' }).catch(rethrowServiceError).then(() => null, (err: unknown) => err);
      assert.ok(bad instanceof AppError);
      assert.equal(bad.code, 'service_unavailable');
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('connections are kept alive and reused, also by the outbox sink, which never reads its answer', async () => {
    const client = createServiceClient<typeof appRouter>(url, tokens);
    const sink = integrationsEventSink(url, tokens);
    sockets.clear();
    for (let i = 0; i < 200; i++) {
      await client({ auth }).echo.mutate({ text: String(i) });
      await sink([]);
    }
    assert.ok(sockets.size <= 2, `200 sequential calls of each kind opened ${sockets.size} connections`);
  });
});

/**
 * bufferedFetch: the global fetch's shape over the same transport (the openai SDK's `fetch`). What
 * the SDK reads must be what fetch gives: the status, the headers, the body, an abort as an
 * `AbortError`; and the request's headers (a Headers object, as the SDK builds them) and body
 * reach the server.
 */
describe('bufferedFetch', () => {
  let server: Server;
  let url: string;
  const seen: { method?: string; headers?: Record<string, unknown>; body?: string }[] = [];
  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        seen.push({ method: req.method, headers: req.headers, body });
        if (req.url === '/empty') return void res.writeHead(204).end();
        if (req.url === '/hang') return;
        if (req.url === '/moved') return void res.writeHead(307, { location: '/v1/chat' }).end();
        res.writeHead(201, [['Content-Type', 'application/json'], ['X-Request-Id', 'req_1'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2']]).end(JSON.stringify({ got: body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('answers a Response with the status, headers and body, and sends the Headers and the body given', async () => {
    const res = await bufferedFetch(`${url}/v1/chat`, { method: 'POST', headers: new Headers({ authorization: 'Bearer k', 'content-type': 'application/json' }), body: '{"q":"Zoë 😀"}' });
    assert.ok(res instanceof Response);
    assert.equal(res.status, 201);
    assert.equal(res.ok, true);
    assert.equal(res.headers.get('x-request-id'), 'req_1');
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(res.headers.get('set-cookie'), 'a=1, b=2');
    assert.deepEqual(await res.json(), { got: '{"q":"Zoë 😀"}' });
    const sent = seen.at(-1)!;
    assert.equal(sent.method, 'POST');
    assert.equal(sent.headers?.authorization, 'Bearer k');
    assert.equal(sent.headers?.['content-length'], String(Buffer.byteLength('{"q":"Zoë 😀"}')));
  });

  it('a 204 has no body', async () => {
    const res = await bufferedFetch(`${url}/empty`);
    assert.equal(res.status, 204);
    assert.equal(res.body, null);
    assert.equal(await res.text(), '');
  });

  it('an abort rejects with an AbortError, as fetch does', async () => {
    const error = await bufferedFetch(`${url}/hang`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(100) }).then(() => null, (err: unknown) => err);
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'AbortError');
  });

  it('a refused connection rejects', async () => {
    await assert.rejects(bufferedFetch(`${await refusingOrigin()}/x`));
  });

  it('a body that is not a string goes through the global fetch, unchanged', async () => {
    const res = await bufferedFetch(`${url}/form`, { method: 'POST', body: new URLSearchParams({ a: 'b c' }) });
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { got: 'a=b+c' });
  });

  it('a redirect is followed, as fetch does', async () => {
    const res = await bufferedFetch(`${url}/moved`, { method: 'POST', body: 'again' });
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { got: 'again' });
  });

  it('a kept-alive connection the server closed as the request went out is retried once on a new one; service calls are not', async () => {
    // The second request of each connection is answered by closing it, unanswered.
    const perSocket = new WeakMap<object, number>();
    let requests = 0;
    const closing = createServer((req, res) => {
      requests += 1;
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      if (n >= 2) return void req.socket.destroy();
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(closing.address() as AddressInfo).port}`;
    try {
      assert.equal((await bufferedFetch(`${base}/a`, { method: 'POST', body: '{}' })).status, 200);
      assert.equal((await bufferedFetch(`${base}/b`, { method: 'POST', body: '{}' })).status, 200);
      assert.equal(requests, 3, 'the second call was sent twice: on the kept connection, then on a new one');
      await serviceFetch(`${base}/c`, { method: 'POST', body: '{}' });
      await assert.rejects(serviceFetch(`${base}/d`, { method: 'POST', body: '{}' }));
    } finally {
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    }
  });
});
