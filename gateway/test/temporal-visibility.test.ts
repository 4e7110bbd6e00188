import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { call, eventually, newOrganizationWithKey, testEnv } from '@hireloop/devstack/testing';
import { newPosition, schedule, startInvite, submitInvite, tokenOf } from './interview-helpers.js';
import { startReceiver } from './webhook-receiver.js';

describe('workflows in the Temporal UI', () => {
  let connection: Connection;
  let temporal: Client;
  before(async () => {
    connection = await Connection.connect({ address: testEnv().temporalAddress });
    temporal = new Client({ connection });
  });
  after(() => connection.close());

  it('carry readable ids and the OrganizationId and Kind search attributes', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    // The ping's first attempt fails, so its endpoint gets a retry loop (the happy path has none).
    const receiver = await startReceiver([{ status: 500 }]);
    try {
      const hook = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: receiver.url, events: ['*'] } });
      const interview = await schedule(org.key, (await newPosition(org.key)).id);
      await startInvite(tokenOf(interview.inviteUrl));
      await submitInvite(tokenOf(interview.inviteUrl), ['One.', 'Two.']);
      const task = await call('POST', '/api/v1/ai/job-description', { key: org.key, body: { title: 'Visible Engineer' } });

      const list = async () => {
        const found: { id: string; kind: unknown }[] = [];
        for await (const wf of temporal.workflow.list({ query: `OrganizationId = '${org.organization.id}'` })) {
          found.push({ id: wf.workflowId, kind: wf.searchAttributes['Kind']?.[0] });
        }
        return found;
      };
      const workflows = await eventually(list, (w) => ['evaluation', 'job_description', 'webhook_delivery'].every((k) => w.some((x) => x.kind === k)), 30_000);
      const ids = workflows.map((w) => w.id);
      assert.ok(ids.includes(`evaluate:${interview.id}`), ids.join(', '));
      assert.ok(ids.includes(`jd:${task.body.data.id}`), ids.join(', '));
      assert.equal(hook.status, 201);
      assert.ok(ids.includes(`endpoint:${hook.body.data.id}`), ids.join(', '));
      for (const w of workflows) assert.ok(['evaluation', 'job_description', 'webhook_delivery', 'ats_event'].includes(String(w.kind)), `${w.id}: ${String(w.kind)}`);
    } finally {
      await receiver.close();
    }
  });
});
