import assert from 'node:assert/strict';
import { TRPCError } from '@trpc/server';

/** Test helper: runs a tRPC call that must fail, and returns its TRPCError. */
export async function expectTRPCError(run: () => Promise<unknown>): Promise<TRPCError> {
  try {
    await run();
  } catch (err) {
    assert.ok(err instanceof TRPCError);
    return err;
  }
  assert.fail('expected the call to fail');
}
