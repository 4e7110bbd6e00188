import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { RetryState } from '@temporalio/common';
import { failureOf } from './failure.js';

const fromActivity = (cause: Error) => new ActivityFailure('activity failed', 'evaluateAndSave', '1', RetryState.MAXIMUM_ATTEMPTS_REACHED, 'identity', cause);

describe('failureOf: what a workflow records when an activity failed for good', () => {
  it('keeps our code and message', () => {
    assert.deepEqual(failureOf(fromActivity(ApplicationFailure.nonRetryable('No interview int_x.', 'not_found')), 'ai_failed', 'The AI evaluation failed.'), { code: 'not_found', message: 'No interview int_x.' });
    assert.deepEqual(failureOf(ApplicationFailure.retryable('AI provider unreachable (ECONNREFUSED)', 'ai_unavailable'), 'ai_failed', 'x'), { code: 'ai_unavailable', message: 'AI provider unreachable (ECONNREFUSED)' });
  });

  it('never passes on a library error: Temporal types it with its class name, and its message is not ours', () => {
    for (const cause of [
      ApplicationFailure.create({ type: 'TRPCClientError', message: 'unsupported Unicode escape sequence' }),
      ApplicationFailure.create({ type: 'Error', message: 'connect ECONNREFUSED 10.0.0.5:5432' }),
      ApplicationFailure.create({ message: 'untyped' }),
      new Error('plain'),
    ]) {
      assert.deepEqual(failureOf(fromActivity(cause), 'ai_failed', 'The AI evaluation failed.'), { code: 'ai_failed', message: 'The AI evaluation failed.' }, cause.message);
    }
  });
});
