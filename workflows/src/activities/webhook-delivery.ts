import { activityInfo, CompleteAsyncError } from '@temporalio/activity';
import type { createIntegrationsClient } from '@hireloop/integrations/client';

export interface DeliveryDeps {
  integrations: ReturnType<typeof createIntegrationsClient>;
}

export interface DeliveryArgs {
  organizationId: string;
  deliveryId: string;
  generation: number;
  /** The wait before the next attempt should this one fail; null when this is the last. */
  waitSeconds: number | null;
}

/**
 * How a retry attempt ended, or none was made: `busy`, the endpoint had its cap of attempts in
 * flight (the retry is queued for it and will be signalled); `full`, integrations had its cap of
 * retries in flight (ask again shortly).
 */
export type AttemptOutcome =
  | { outcome: 'delivered' | 'gone' | 'stopped' | 'busy' | 'full' }
  | { outcome: 'failed'; retryAfterSeconds: number | null };

/**
 * Webhook delivery activities. An attempt is made by the integrations service (the owner of the
 * payload, the secret and the keep-alive client): the workflow history holds ids only.
 */
export function createDeliveryActivities({ integrations }: DeliveryDeps) {
  return {
    /**
     * Hands one attempt to integrations with this activity's task token. An accepted attempt
     * completes the activity from integrations once it is recorded, so this worker's slot is free
     * while the receiver takes its time (up to 15 s): hanging endpoints cannot use up the slots.
     */
    async attemptDelivery(args: DeliveryArgs): Promise<AttemptOutcome> {
      const { organizationId, ...input } = args;
      const taskToken = Buffer.from(activityInfo().taskToken).toString('base64');
      const { outcome } = await integrations.forOrganization(organizationId).deliveries.attempt.mutate({ ...input, taskToken });
      if (outcome === 'accepted') throw new CompleteAsyncError();
      return { outcome };
    },
    /** The retention purge of integrations: events, delivery attempts, relayed outbox rows. */
    async purgeWebhookEvents() {
      return integrations.system.deliveries.purge.mutate();
    },
  };
}
export type DeliveryActivities = ReturnType<typeof createDeliveryActivities>;
