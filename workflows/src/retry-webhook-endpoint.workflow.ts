import { condition, continueAsNew, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import { ENDPOINT_RETRY_LOOP, type EndpointRetryLoopArgs } from '@hireloop/contracts/workflows';
import { ENDPOINT_ROUND } from './activity-options.js';
import type { DeliveryActivities } from './activities/webhook-delivery.js';

const { retryDueDeliveries } = proxyActivities<DeliveryActivities>(ENDPOINT_ROUND);
const wake = defineSignal(ENDPOINT_RETRY_LOOP.wakeSignal);

/**
 * `endpoint:<webhookId>`, on the deliveries lane: the retry loop of one webhook endpoint
 * (PRODUCT.md §8). Its retry queue is rows in Postgres (each delivery `retrying` with its own
 * due time on the schedule); this loop only decides when to look. Each round (an activity that
 * integrations completes once the round's attempts are recorded) makes the endpoint's due
 * attempts under its cap, or probes it while it is failing, and answers what next: look again,
 * sleep some seconds (a durable timer, cut short by the `wake` signal when a retry comes due
 * sooner), or end when the queue is empty. Integrations starts it, or wakes it, with
 * signal-with-start. It continues as new every `roundsPerRun` rounds, so its history stays
 * bounded however long the endpoint is down. Ids and numbers only, in and out.
 *
 * So retries cost one workflow per failing endpoint, not one per failed delivery.
 */
export async function retryWebhookEndpoint(args: EndpointRetryLoopArgs): Promise<string> {
  let woken = false;
  setHandler(wake, () => {
    woken = true;
  });
  for (let round = 1; ; round++) {
    // A wake-up that comes while the round runs is for something the round may not have seen.
    woken = false;
    const next = await retryDueDeliveries({ organizationId: args.organizationId, webhookId: args.webhookId });
    if (next.outcome === 'ended') {
      if (!woken) return 'ended';
    } else if (next.outcome === 'sleep' && !woken) {
      await condition(() => woken, next.seconds * 1000);
    }
    // The next run starts with a round, which finds what this one would have.
    if (round >= args.roundsPerRun) await continueAsNew<typeof retryWebhookEndpoint>(args);
  }
}
