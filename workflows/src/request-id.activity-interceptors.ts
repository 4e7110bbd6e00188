import { defaultPayloadConverter } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { isWellFormedRequestId, withRequestId } from '@hireloop/platform';
import { REQUEST_ID_HEADER } from './request-id.workflow-interceptors.js';

/**
 * An activity's log lines carry the request id its workflow put in the activity's headers, and the
 * activity runs in its scope (`withRequestId`), so the services it calls get it as X-Request-Id
 * (their log lines, their audit rows, and the workflows they start carry it on).
 */
export const requestIdActivityInterceptors: ActivityInterceptorsFactory = () => {
  let requestId: string | undefined;
  return {
    inbound: {
      execute: (input, next) => {
        const header = input.headers[REQUEST_ID_HEADER];
        const value: unknown = header ? defaultPayloadConverter.fromPayload(header) : undefined;
        if (typeof value === 'string' && isWellFormedRequestId(value)) requestId = value;
        return requestId ? withRequestId(requestId, () => next(input)) : next(input);
      },
    },
    outbound: {
      getLogAttributes: (input, next) => next(requestId ? { ...input, requestId } : input),
    },
  };
};
