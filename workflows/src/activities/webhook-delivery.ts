import { activityInfo, CompleteAsyncError } from '@temporalio/activity';
import type { EndpointRound } from '@hireloop/contracts/workflows';
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
 * How a per-delivery workflow's retry attempt ended (before the endpoints' loops), or none was
 * made: `busy`, the endpoint had its cap of attempts in flight; `full`, integrations had its cap of
 * retries in flight. Integrations now answers `stopped` (the delivery went to its endpoint's loop).
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
     * A round of an endpoint's retry loop: integrations makes the endpoint's due attempts with
     * this activity's task token, and completes the activity with what the loop does next once
     * they are recorded, so this worker's slot is free while receivers take their time (up to
     * 15 s each): hanging endpoints cannot use up the slots. Answered at once when there is
     * nothing to attempt now.
     */
    async retryDueDeliveries(args: { organizationId: string; webhookId: string }): Promise<EndpointRound> {
      const taskToken = Buffer.from(activityInfo().taskToken).toString('base64');
      const answer = await integrations.forOrganization(args.organizationId).deliveries.retryDue.mutate({ webhookId: args.webhookId, taskToken });
      if (answer.outcome === 'accepted') throw new CompleteAsyncError();
      return answer;
    },
    /** A per-delivery workflow's attempt (before the endpoints' loops): integrations hands the delivery to its endpoint's loop. */
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
