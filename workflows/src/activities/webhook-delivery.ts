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
 * Webhook delivery activities. An attempt is made by the integrations service (the owner of the
 * payload, the secret and the keep-alive client): the workflow history holds ids only.
 */
export function createDeliveryActivities({ integrations }: DeliveryDeps) {
  return {
    async attemptDelivery(args: DeliveryArgs) {
      const { organizationId, ...input } = args;
      return integrations.forOrganization(organizationId).deliveries.attempt.mutate(input);
    },
    /** The retention purge of integrations: events, delivery attempts, relayed outbox rows. */
    async purgeWebhookEvents() {
      return integrations.system.deliveries.purge.mutate();
    },
  };
}
export type DeliveryActivities = ReturnType<typeof createDeliveryActivities>;
