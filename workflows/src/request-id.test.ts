import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { currentRequestId, newRequestId } from '@hireloop/platform';
import { testEnv } from '@hireloop/devstack/testing';
import { requestIdActivityInterceptors } from './request-id.activity-interceptors.js';

/**
 * An activity runs in the scope of its workflow's request id (the memo's `requestId`), so the
 * service calls it makes carry it (packages/platform service-client.test.ts shows the header).
 * A worker of this test's own, on its own task queue of the test stack's Temporal, with the
 * worker's interceptors and the real `purgeGateway` workflow; its one activity reports the scope.
 */
describe('activities run in their workflow\'s request id', () => {
  let connection: Connection;
  let nativeConnection: NativeConnection;
  before(async () => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    connection = await Connection.connect({ address: testEnv().temporalAddress });
    nativeConnection = await NativeConnection.connect({ address: testEnv().temporalAddress });
  });
  after(async () => {
    await connection.close();
    await nativeConnection.close();
  });

  it('currentRequestId() in the activity is the memo\'s request id; none without one', async () => {
    const seen: (string | undefined)[] = [];
    const taskQueue = `request-id-test-${process.pid}`;
    const worker = await Worker.create({
      connection: nativeConnection,
      taskQueue,
      workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)),
      interceptors: {
        workflowModules: [fileURLToPath(new URL('./request-id.workflow-interceptors.ts', import.meta.url))],
        activity: [requestIdActivityInterceptors],
      },
      activities: {
        purgeIdempotencyKeys: async () => {
          seen.push(currentRequestId());
          return { idempotencyKeys: 0, erasedSubjects: 0 };
        },
      },
    });
    const client = new Client({ connection });
    const requestId = newRequestId();
    await worker.runUntil(async () => {
      await client.workflow.execute('purgeGateway', { taskQueue, workflowId: `request-id-test-${requestId}`, memo: { requestId } });
      await client.workflow.execute('purgeGateway', { taskQueue, workflowId: `request-id-test-none-${requestId}` });
    });
    assert.deepEqual(seen, [requestId, undefined]);
  });
});
