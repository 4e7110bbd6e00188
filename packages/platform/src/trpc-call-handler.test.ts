import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { z } from 'zod';
import { createTrpc } from './trpc.js';
import { AppError, toTRPCError } from './errors.js';
import { createTrpcCallHandler } from './trpc-call-handler.js';

/**
 * The services answer tRPC calls with their own handler (trpc-call-handler.ts), in place of
 * tRPC's standalone adapter (which still answers batches). Every caller must see the same thing: each request below goes to
 * both, over HTTP, and gets the same status, the same JSON and the same content type, for
 * results and for every kind of error (unknown procedure, wrong method, invalid or malformed
 * input, an AppError, a crash, a context that fails).
 */
describe('tRPC calls without the standalone adapter', () => {
  interface Ctx {
    caller: string | null;
  }
  const t = createTrpc<Ctx>();
  const appRouter = t.router({
    echo: t.procedure.input(z.object({ text: z.string().max(10) })).mutation(({ input, ctx }) => ({ echoed: input.text, caller: ctx.caller })),
    lookup: t.procedure.input(z.object({ id: z.string() })).query(({ input }) => ({ id: input.id, at: new Date(0) })),
    nothing: t.procedure.query(() => null),
    bare: t.procedure.mutation(() => 'done'),
    gone: t.procedure.input(z.object({ id: z.string() })).query((): string => {
      throw toTRPCError(new AppError('not_found', 'No such thing.', [{ path: 'id', message: 'unknown' }]));
    }),
    crash: t.procedure.mutation((): string => {
      throw new Error('secret internals');
    }),
    nested: t.router({ deep: t.procedure.query(() => 'deep') }),
  });
  const createContext = async (headers: Record<string, string | string[] | undefined>): Promise<Ctx> => {
    if (headers['x-fail-context']) throw toTRPCError(new AppError('unauthenticated', 'No.'));
    return { caller: typeof headers['x-caller'] === 'string' ? headers['x-caller'] : null };
  };
  const theirs = createHTTPHandler({ router: appRouter, basePath: '/trpc/', createContext: ({ req }) => createContext(req.headers) });
  // Batches go to tRPC's adapter; a separate instance, so that the test sees the routing work.
  const fallback = createHTTPHandler({ router: appRouter, basePath: '/trpc/', createContext: ({ req }) => createContext(req.headers) });
  const ours = createTrpcCallHandler({ router: appRouter, basePath: '/trpc/', createContext: (req) => createContext(req.headers), fallback });
  const servers: Server[] = [];
  const urls: string[] = [];
  before(async () => {
    for (const handle of [ours, theirs]) {
      const server = createServer((req, res) => void handle(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
  });
  after(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

  const json = (value: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
  const input = (value: unknown) => `?input=${encodeURIComponent(JSON.stringify(value))}`;
  const cases: [string, string, RequestInit?][] = [
    ['a query with its input', `lookup${input({ id: 'a b&c=d é' })}`],
    ['a query without input', 'nothing'],
    ['a nested procedure', 'nested.deep'],
    ['a mutation with its input and context', 'echo', { ...json({ text: 'hi' }), headers: { 'content-type': 'application/json', 'x-caller': 'gateway' } }],
    ['a mutation without a body', 'bare', { method: 'POST', headers: { 'content-type': 'application/json' } }],
    ['input failing its schema', 'echo', json({ text: 'far too long for it' })],
    ['input missing', 'lookup'],
    ['an unknown procedure', 'nope'],
    ['an unknown nested procedure', 'nested.nope'],
    ['a mutation called with GET', 'echo'],
    ['a query called with POST', 'lookup', json({ id: 'x' })],
    ['an AppError', `gone${input({ id: 'x' })}`],
    ['a crash', 'crash', json(null)],
    ['a context that fails', 'nothing', { headers: { 'x-fail-context': '1' } }],
    // The console's httpBatchLink, through the gateway's session proxy: tRPC's own adapter answers.
    ['a batch of queries', `lookup,nothing,gone?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { id: 'a' }, 2: { id: 'b' } }))}`],
    ['a batch of mutations', 'echo,bare?batch=1', json({ 0: { text: 'hi' } })],
  ];

  for (const [name, path, init] of cases) {
    it(`${name}: the same status, body and content type`, async () => {
      const [a, b] = await Promise.all(urls.map((url) => fetch(`${url}/trpc/${path}`, init)));
      assert.equal(a!.status, b!.status);
      assert.equal(a!.headers.get('content-type'), b!.headers.get('content-type'));
      assert.deepEqual(await a!.json(), await b!.json());
    });
  }

  // The one deliberate difference: tRPC answers malformed JSON as BAD_REQUEST with the parser's
  // own message; here it is PARSE_ERROR, the platform's `invalid_json`, with no library text.
  for (const [name, path, init] of [
    ['a body that is not JSON', 'echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":' }],
    ['a query input that is not JSON', 'lookup?input=%7Bnope'],
  ] as const) {
    it(`${name}: the same status, as invalid_json`, async () => {
      const [a, b] = await Promise.all(urls.map((url) => fetch(`${url}/trpc/${path}`, init)));
      assert.equal(a!.status, b!.status);
      const body = (await a!.json()) as { error: { message: string; data: { code: string; appCode?: string } } };
      assert.equal(body.error.data.code, 'PARSE_ERROR');
      assert.equal(body.error.data.appCode, 'invalid_json');
      assert.equal(body.error.message, 'The request body is not valid JSON.');
    });
  }

  it('answers a call for another content type 415, and with no crash details', async () => {
    const res = await fetch(`${urls[0]}/trpc/echo`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    assert.equal(res.status, 415);
    const crash = (await (await fetch(`${urls[0]}/trpc/crash`, json(null))).json()) as { error: { message: string; data: { stack?: string } } };
    assert.equal(crash.error.data.stack, undefined);
  });
});
