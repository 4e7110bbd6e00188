import { after, before, describe, it } from 'node:test';
import { Writable } from 'node:stream';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { appErrorFromClientError, createServiceClient } from './service-client.js';
import { createServiceServer } from './service-server.js';
import { createServiceProcedures } from './trpc.js';
import { InternalTokenCache, SYSTEM_SUBJECT } from './internal-auth.js';
import { parseKeyRing } from './keys.js';
import { createLogger } from './logger.js';
import { newRequestId, withRequestId } from './request-id.js';

/**
 * The request id travels with a service call (X-Request-Id): the one the caller names, or else the
 * one of the scope it runs in, as an activity runs in its workflow's (workflows'
 * request-id.activity-interceptors.ts). A real service server over HTTP, answering the request id
 * its procedure's context got.
 */
describe('a service call carries the request id of its scope', () => {
  const keys = parseKeyRing(`k1:${'r'.repeat(32)}`, 'secret');
  const { router, internalProcedure } = createServiceProcedures();
  const appRouter = router({
    requestId: internalProcedure.query(({ ctx }) => ctx.requestId),
    broken: internalProcedure.query((): string => {
      throw new Error('select password from users');
    }),
  });
  const logLines: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  let server: Server;
  let client: ReturnType<typeof createServiceClient<typeof appRouter>>;
  const auth = { sub: SYSTEM_SUBJECT, org: null, scopes: [] };
  before(async () => {
    server = createServiceServer({ name: 'request-id-test', router: appRouter, internalTokenKeys: keys, logger: createLogger('request-id-test', 'error', logStream), ready: async () => undefined });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = createServiceClient<typeof appRouter>(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, new InternalTokenCache(keys));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('inside withRequestId, with none named, the service sees the scope\'s request id', async () => {
    const id = newRequestId();
    assert.equal(await withRequestId(id, () => client({ auth }).requestId.query()), id);
  });

  it('a request id named by the call wins; with neither, the service makes a new one', async () => {
    const named = newRequestId();
    assert.equal(await withRequestId(newRequestId(), () => client({ auth, requestId: named }).requestId.query()), named);
    const fresh = await client({ auth }).requestId.query();
    assert.match(fresh, /^req_/);
    assert.notEqual(fresh, named);
  });

  it('the service\'s log line of a failed call carries the caller\'s request id, and no message', async () => {
    const id = newRequestId();
    await assert.rejects(withRequestId(id, () => client({ auth }).broken.query()));
    const line = logLines.find((l) => l['msg'] === 'procedure failed');
    assert.equal(line?.['requestId'], id);
    assert.deepEqual(line?.['err'], { type: 'TRPCError', code: 'INTERNAL_SERVER_ERROR', cause: { type: 'Error' } });
  });
});

/**
 * A service that accepts the connection and never answers (stopped with SIGSTOP, wedged): with a
 * deadline, the call fails as a service that is down does (503 `service_unavailable` at the
 * gateway), instead of hanging its caller. A real HTTP server that reads the request and says
 * nothing.
 */
describe('a service call to a service that never answers', () => {
  const keys = parseKeyRing(`k1:${'r'.repeat(32)}`, 'secret');
  const { router, internalProcedure } = createServiceProcedures();
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- only its type: the client's; the silent server serves nothing
  const appRouter = router({ ping: internalProcedure.query(() => 'pong'), touch: internalProcedure.mutation(() => 'touched') });
  let silent: Server;
  let url: string;
  before(async () => {
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  after(() => {
    silent.closeAllConnections();
    return new Promise<void>((resolve) => silent.close(() => resolve()));
  });
  const auth = { sub: SYSTEM_SUBJECT, org: null, scopes: [] };

  it('with a deadline, a query and a mutation each fail at it as service_unavailable', { timeout: 5000 }, async () => {
    const client = createServiceClient<typeof appRouter>(url, new InternalTokenCache(keys), { timeoutMs: 300 });
    for (const call of [() => client({ auth }).ping.query(), () => client({ auth }).touch.mutate()]) {
      const started = performance.now();
      const error = await call().then(() => null, (err: unknown) => err);
      assert.ok(error, 'the call failed');
      assert.equal(appErrorFromClientError(error)?.code, 'service_unavailable');
      assert.ok(performance.now() - started >= 250, 'not before the deadline');
    }
  });

  it('without one, the call is still waiting when a deadline would have ended it', async () => {
    const client = createServiceClient<typeof appRouter>(url, new InternalTokenCache(keys));
    const outcome = await Promise.race([client({ auth }).ping.query().then(() => 'answered', () => 'failed'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 600))]);
    assert.equal(outcome, 'waiting');
  });
});
