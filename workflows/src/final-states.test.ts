import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { ID_PREFIXES } from '@hireloop/contracts';
import { newId } from '@hireloop/platform';
import { newOrganizationWithKey, testEnv } from '@hireloop/devstack/testing';

/**
 * When the first activity of the evaluation workflow fails for good, the workflow goes on to record
 * the failure (it used to end with the record still `processing`), and a refusal by our service is
 * permanent: one attempt, not twenty (or, for outcome writes, not forever). Run on the test stack's
 * worker, for records that do not exist, so the service refuses the steps.
 */
describe('workflows whose first step fails', () => {
  let connection: Connection;
  let client: Client;
  let orgId: string;
  before(async () => {
    connection = await Connection.connect({ address: testEnv().temporalAddress });
    client = new Client({ connection });
    orgId = (await newOrganizationWithKey()).organization.id;
  });
  after(() => connection.close());

  /** Runs a workflow to its end; returns the activities it ran, with the attempt each one reached. */
  async function run(workflowType: string, args: Record<string, unknown>, workflowId: string) {
    const handle = await client.workflow.start(workflowType, { workflowId, taskQueue: process.env['TEMPORAL_TASK_QUEUE'] ?? 'hireloop', args: [args] });
    await assert.rejects(handle.result(), WorkflowFailedError, 'the service refuses to record the failure of a record it does not have');
    const { events } = await handle.fetchHistory();
    const scheduled = new Map<number, string>();
    const ran: { activity: string; attempt: number }[] = [];
    for (const e of events ?? []) {
      const id = Number(e.eventId);
      if (e.activityTaskScheduledEventAttributes) scheduled.set(id, e.activityTaskScheduledEventAttributes.activityType?.name ?? '');
      const started = e.activityTaskStartedEventAttributes;
      if (started) ran.push({ activity: scheduled.get(Number(started.scheduledEventId))!, attempt: started.attempt ?? 0 });
    }
    return ran;
  }

  it('evaluation: input that cannot be loaded goes on to record the evaluation as failed, after one attempt', async () => {
    const interviewId = newId(ID_PREFIXES.interview);
    const ran = await run('evaluateInterview', { interviewId, organizationId: orgId }, `evaluate:${interviewId}`);
    assert.deepEqual(ran, [
      { activity: 'evaluateAndSave', attempt: 1 },
      { activity: 'saveEvaluationFailure', attempt: 1 },
    ]);
  });

  it('job description: a task that cannot be loaded goes on to record the task as failed, after one attempt', async () => {
    // markTaskRunning of an unknown task changes nothing; its request cannot be read (not_found),
    // and recording the failure is refused too, which ends the unlimited outcome retries at once.
    const taskId = newId(ID_PREFIXES.task);
    const ran = await run('generateJobDescription', { taskId, organizationId: orgId }, `jd:${taskId}`);
    assert.deepEqual(ran, [
      { activity: 'markTaskRunning', attempt: 1 },
      { activity: 'writeAndSaveJobDescription', attempt: 1 },
      { activity: 'failTask', attempt: 1 },
    ]);
  });

  it('job description started with the request in its input (before ids only): a refusal to record the outcome ends the unlimited outcome retries at once', async () => {
    // markTaskRunning of an unknown task changes nothing; completing it is refused (not_found).
    const taskId = newId(ID_PREFIXES.task);
    const ran = await run('generateJobDescription', { taskId, organizationId: orgId, input: { title: 'Ghost' } }, `jd:${taskId}`);
    assert.deepEqual(ran, [
      { activity: 'markTaskRunning', attempt: 1 },
      { activity: 'writeJobDescription', attempt: 1 },
      { activity: 'completeTask', attempt: 1 },
    ]);
  });
});
