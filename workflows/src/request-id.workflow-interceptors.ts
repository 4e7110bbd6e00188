// Workflow-side interceptors (they run in the workflow sandbox: import from @temporalio/workflow only).
import { defaultPayloadConverter, workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';

/**
 * The id of the request that started a workflow travels in its memo (`requestId`, set by the
 * workflow-outbox relay). Every log line of the workflow carries it, and every activity it
 * schedules gets it in a header, for the activity's log lines (request-id.activity-interceptors.ts).
 * Ids only: nothing else is added.
 */
export const REQUEST_ID_HEADER = 'requestId';

function requestId(): string | undefined {
  const value = workflowInfo().memo?.['requestId'];
  return typeof value === 'string' ? value : undefined;
}

export const interceptors: WorkflowInterceptorsFactory = () => ({
  outbound: [
    {
      scheduleActivity: (input, next) => {
        const id = requestId();
        return next(id ? { ...input, headers: { ...input.headers, [REQUEST_ID_HEADER]: defaultPayloadConverter.toPayload(id) } } : input);
      },
      getLogAttributes: (input, next) => {
        const id = requestId();
        return next(id ? { ...input, requestId: id } : input);
      },
    },
  ],
});
