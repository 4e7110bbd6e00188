import { defaultPayloadConverter } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { REQUEST_ID_HEADER } from './request-id.workflow-interceptors.js';

/** An activity's log lines carry the request id its workflow put in the activity's headers. */
export const requestIdActivityInterceptors: ActivityInterceptorsFactory = () => {
  let requestId: string | undefined;
  return {
    inbound: {
      execute: (input, next) => {
        const header = input.headers[REQUEST_ID_HEADER];
        const value: unknown = header ? defaultPayloadConverter.fromPayload(header) : undefined;
        if (typeof value === 'string') requestId = value;
        return next(input);
      },
    },
    outbound: {
      getLogAttributes: (input, next) => next(requestId ? { ...input, requestId } : input),
    },
  };
};
