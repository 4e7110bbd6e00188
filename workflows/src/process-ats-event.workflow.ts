import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import { PLATFORM_CALL } from './activity-options.js';
import type { AtsActivities } from './activities/ats-events.js';
import type { AtsEventBody } from '@hireloop/contracts';

const { applyAtsEvent, finishAtsEvent } = proxyActivities<AtsActivities>(PLATFORM_CALL);

/** `ats:<atsEventId>`: applies an inbound ATS event and emits `ats_event.processed`. */
export async function processAtsEvent(args: { atsEventId: string; organizationId: string; event: AtsEventBody }): Promise<string> {
  try {
    const result = await applyAtsEvent({ organizationId: args.organizationId, event: args.event });
    await finishAtsEvent({ organizationId: args.organizationId, atsEventId: args.atsEventId, result });
    return 'processed';
  } catch (err) {
    const cause = err instanceof ActivityFailure ? err.cause : err;
    const code = cause instanceof ApplicationFailure && cause.type ? cause.type : 'ats_event_failed';
    await finishAtsEvent({ organizationId: args.organizationId, atsEventId: args.atsEventId, error: { code, message: cause instanceof Error ? cause.message : 'failed' } });
    return 'failed';
  }
}
