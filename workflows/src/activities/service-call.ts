import { ApplicationFailure } from '@temporalio/activity';
import { appErrorFromClientError } from '@hireloop/platform';

/**
 * A call from an activity to one of our services. A refusal (not found, conflict, validation…) is
 * permanent: it fails the activity at once as a non-retryable failure typed with the error code,
 * instead of being retried for minutes (a 500 is a bug: retrying does not mend it). The service
 * down (503) or unreachable, or a timeout, is retried.
 */
export async function serviceCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const app = appErrorFromClientError(err);
    if (app && app.code !== 'service_unavailable') throw ApplicationFailure.nonRetryable(app.message, app.code);
    throw err;
  }
}
