/**
 * What a process that starts or signals a workflow and the worker that runs it must agree on:
 * the workflow's type, id and signals. Internal, never on the public API; plain values only, so
 * the workflow bundle can import this module (`@hireloop/contracts/workflows`).
 */

/**
 * The retry loop of one webhook endpoint (workflows/src/retry-webhook-endpoint.workflow.ts),
 * started or woken by integrations (deliveries/endpoint-loops.ts) with signal-with-start: a
 * duplicate start while it runs is only a wake-up, and a loop that has ended starts again.
 */
export const ENDPOINT_RETRY_LOOP = {
  workflowType: 'retryWebhookEndpoint',
  /** "Look again now": a retry came due earlier than the loop's timer, or its breaker closed. */
  wakeSignal: 'wake',
  /** The `Kind` search attribute, shared with the per-delivery workflows before it. */
  kind: 'webhook_delivery',
} as const;

/** `endpoint:<webhookId>`: one loop per endpoint. */
export const endpointRetryLoopId = (webhookId: string) => `endpoint:${webhookId}`;

/** The loop's input: ids and numbers only. */
export interface EndpointRetryLoopArgs {
  organizationId: string;
  webhookId: string;
  /** Rounds before it continues as new (a bounded history); a setting of integrations. */
  roundsPerRun: number;
}

/**
 * What one round of the loop answers: look again at once, sleep (a duration, so that clocks of
 * the database and the worker need not agree; a wake signal cuts it short), or end (no retry left).
 */
export type EndpointRound = { outcome: 'again' } | { outcome: 'sleep'; seconds: number } | { outcome: 'ended' };
