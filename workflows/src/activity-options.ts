import type { ActivityOptions } from '@temporalio/workflow';

/** Calls to our own services: retried patiently, they only fail while a service is down. */
export const PLATFORM_CALL: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 20 },
};

/**
 * Calls to the AI provider: a few attempts with backoff for 429/5xx; a refused request fails at once.
 * They heartbeat while they run (heartbeat.activity-interceptors.ts), so a worker killed mid-call is
 * noticed after 10 s and the call retried by another worker, not after the 3 minutes a reply may take.
 */
export const AI_CALL: ActivityOptions = {
  startToCloseTimeout: '3 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5, nonRetryableErrorTypes: ['ai_request_rejected'] },
};

/**
 * Writing a workflow's outcome to its record (completed, failed, processed): retried with no
 * attempt limit until the service takes it, so no record is left in a non-final state while the
 * service is merely down. A refusal is non-retryable (activities/service-call.ts) and ends it.
 */
export const RECORD_OUTCOME: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};

/**
 * The erasure's steps (erase-candidate.workflow.ts): each must happen, so attempts are not
 * limited; the back-off grows to 5 minutes while a service is down or busy. What is not worth
 * retrying the activity makes non-retryable (activities/erasure.ts). A step pages through all of
 * a person's ids, so it may run long: it heartbeats (heartbeat.activity-interceptors.ts) and a
 * dead worker is noticed after 10 s.
 */
export const ERASURE_STEP: ActivityOptions = {
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
};

/**
 * A round of an endpoint's retry loop (retry-webhook-endpoint.workflow.ts): integrations
 * completes it once the round's attempts are recorded (30 s of attempts at most, each within its
 * 15 s deadline), and heartbeats it meanwhile (every 5 s), so an integrations instance that died
 * mid-round is noticed after 20 s, and the round asked again (the attempts it had in flight are
 * made again once their leases expire). Asked again without limit while integrations is down:
 * the loop must not give up on a queue.
 */
export const ENDPOINT_ROUND: ActivityOptions = {
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};
