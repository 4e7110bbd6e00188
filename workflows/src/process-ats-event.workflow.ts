import { proxyActivities } from '@temporalio/workflow';
import { PLATFORM_CALL, RECORD_OUTCOME } from './activity-options.js';
import { failureOf } from './failure.js';
import type { AtsActivities } from './activities/ats-events.js';

const { applyAtsEvent } = proxyActivities<AtsActivities>(PLATFORM_CALL);
const { finishAtsEvent } = proxyActivities<AtsActivities>(RECORD_OUTCOME);

/**
 * `ats:<atsEventId>`: applies an inbound ATS event and emits `ats_event.processed`. Only a failure
 * to apply marks the event failed; once applied, it is recorded as processed (retried until the
 * service takes it), never as failed.
 */
export async function processAtsEvent(args: { atsEventId: string; organizationId: string }): Promise<string> {
  let result;
  try {
    result = await applyAtsEvent({ organizationId: args.organizationId, atsEventId: args.atsEventId });
  } catch (err) {
    const error = failureOf(err, 'ats_event_failed', 'The ATS event could not be applied.');
    await finishAtsEvent({ organizationId: args.organizationId, atsEventId: args.atsEventId, error });
    return 'failed';
  }
  await finishAtsEvent({ organizationId: args.organizationId, atsEventId: args.atsEventId, result });
  return 'processed';
}
