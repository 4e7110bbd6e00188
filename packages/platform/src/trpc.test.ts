import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { appErrorOf, createTrpc } from './trpc.js';
import { expectTRPCError } from './expect-trpc-error.js';

/** PRODUCT.md §3: input that fails its schema is 422; our own output failing its schema is a 500. */
describe('appErrorOf', () => {
  const t = createTrpc<object>();
  const router = t.router({
    echo: t.procedure.input(z.object({ n: z.number() })).output(z.object({ n: z.number() })).query(({ input }) => input),
    broken: t.procedure.output(z.object({ n: z.number() })).query(() => ({ n: 'not a number' }) as unknown as { n: number }),
  });
  const caller = t.createCallerFactory(router)({});

  it('input that fails its schema is validation_failed with the field', async () => {
    const app = appErrorOf(await expectTRPCError(() => caller.echo({ n: '30' as unknown as number })));
    assert.equal(app?.code, 'validation_failed');
    assert.deepEqual(app?.details?.map((d) => d.path), ['n']);
  });

  it('an output that fails its own schema is not ours to explain: null, so callers answer a logged 500', async () => {
    const error = await expectTRPCError(() => caller.broken());
    assert.equal(error.code, 'INTERNAL_SERVER_ERROR');
    assert.equal(appErrorOf(error), null);
  });
});
