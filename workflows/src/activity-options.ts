import type { ActivityOptions } from '@temporalio/workflow';

/** Calls to our own services: retried patiently, they only fail while a service is down. */
export const PLATFORM_CALL: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 20 },
};

/** Calls to the AI provider: a few attempts with backoff for 429/5xx; a refused request fails at once. */
export const AI_CALL: ActivityOptions = {
  startToCloseTimeout: '3 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5, nonRetryableErrorTypes: ['ai_request_rejected'] },
};
