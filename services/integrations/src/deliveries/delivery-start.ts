import type { WorkflowStart } from '@hireloop/platform';

export interface DeliverySettings {
  allowLoopback: boolean;
  /** Seconds to wait before each retry (PRODUCT.md §8's schedule unless configured otherwise). */
  retrySchedule: number[];
  taskQueue: string;
}

export interface DeliveredEvent {
  id: string;
  type: string;
  createdAt: string;
  data: unknown;
}

/** The durable delivery of one event to one webhook: workflow `deliver:<event>:<webhook>`. */
export function deliveryStart(settings: DeliverySettings, organizationId: string, webhookId: string, event: DeliveredEvent): WorkflowStart {
  return {
    workflowId: `deliver:${event.id}:${webhookId}`,
    workflowType: 'deliverWebhook',
    args: [{ organizationId, webhookId, event, retrySchedule: settings.retrySchedule }],
    organizationId,
    kind: 'webhook_delivery',
    taskQueue: settings.taskQueue,
  };
}
