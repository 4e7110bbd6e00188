import type { WorkflowStart } from '@hireloop/platform';

export interface DeliverySettings {
  allowLoopback: boolean;
  /** Seconds to wait before each retry (PRODUCT.md §8's schedule unless configured otherwise). */
  retrySchedule: number[];
  taskQueue: string;
  /** Total deadline of one attempt: connect, send, response headers and the 1 KiB excerpt. */
  timeoutMs: number;
  /** How long a dispatcher holds a claimed delivery; past it, Temporal takes the delivery over. */
  leaseMs: number;
  /** Attempts in flight at once, per endpoint (across every instance) and per dispatcher. */
  endpointConcurrency: number;
  totalConcurrency: number;
}

/** What a retry workflow starts from: ids and numbers, never the payload or the secret. */
export interface RetryWorkflowArgs {
  organizationId: string;
  deliveryId: string;
  generation: number;
  /** Attempts this generation already made (1 after a failed first attempt, 0 after a lost lease). */
  attempted: number;
  /** The receiver's Retry-After on the attempt already made, in seconds. */
  retryAfterSeconds: number | null;
  retrySchedule: number[];
}

/**
 * The signal integrations sends a retry workflow waiting for a place under its endpoint's cap
 * when an attempt to that endpoint ends (endpoint-waiters.ts); no arguments.
 */
export const ENDPOINT_FREE_SIGNAL = 'endpointFree';

/**
 * `deliver:<delivery>` (generation 0), `deliver:<delivery>:<n>` after a manual retry or a replay:
 * a repeated start of the same generation is a no-op (ARCHITECTURE.md).
 */
export function retryWorkflowId(deliveryId: string, generation: number): string {
  return generation === 0 ? `deliver:${deliveryId}` : `deliver:${deliveryId}:${generation}`;
}

/** The durable retry schedule of one delivery, started after its commit through the workflow outbox. */
export function retryStart(settings: DeliverySettings, args: Omit<RetryWorkflowArgs, 'retrySchedule'>): WorkflowStart {
  return {
    workflowId: retryWorkflowId(args.deliveryId, args.generation),
    workflowType: 'deliverWebhook',
    args: [{ ...args, retrySchedule: settings.retrySchedule } satisfies RetryWorkflowArgs],
    organizationId: args.organizationId,
    kind: 'webhook_delivery',
    taskQueue: settings.taskQueue,
  };
}
