import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from '@temporalio/worker';

/**
 * Workflows outlive the code that started them (a delivery's retries ran for hours, an endpoint's
 * retry loop runs as long as the endpoint fails), so a new worker replays histories written by the
 * code before it. These are real histories (test and benchmark runs, ids only), replayed through
 * the current code with the worker's interceptors; a change that would make a running workflow
 * non-deterministic fails here. Every file in histories/ is replayed:
 * - `deliver-webhook.busy-timer`: a per-delivery workflow from before the endpoint-free signal,
 *   waiting on 1–30 s timers while the endpoint was at its cap (kept by
 *   `patched('webhook-endpoint-free-signal')`);
 * - `deliver-webhook.busy-signal`: waiting for `endpointFree` signals (answered `busy` six times);
 * - `deliver-webhook.handed-over`: started by the code before the endpoints' retry loops (issue
 *   19) and waiting on its retry timer at the upgrade; the new worker ran its next ask, which the
 *   new integrations answered `stopped` (the delivery went to its endpoint's loop), and it ended;
 * - `retry-webhook-endpoint.ended`: an endpoint's retry loop started (signal-with-start), one round,
 *   ended with the queue empty;
 * - `retry-webhook-endpoint.probed-drained`: a loop whose endpoint was failing: probe rounds with
 *   sleeps between them, a wake-up during a round, the drain, and continue-as-new.
 */
const workflowsPath = fileURLToPath(new URL('./workflows.ts', import.meta.url));
const interceptors = { workflowModules: [fileURLToPath(new URL('./request-id.workflow-interceptors.ts', import.meta.url))] };
const dir = new URL('./histories/', import.meta.url);
const names = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();
const history = (name: string) => JSON.parse(readFileSync(new URL(`${name}.json`, dir), 'utf8')) as { events: { eventType: string }[] };

describe('the histories of running workflows replay through the current code', () => {
  it('has the histories named above', () => {
    for (const name of ['deliver-webhook.busy-timer', 'deliver-webhook.busy-signal', 'deliver-webhook.handed-over', 'retry-webhook-endpoint.ended', 'retry-webhook-endpoint.probed-drained']) {
      assert.ok(names.includes(name), name);
    }
  });
  for (const name of names) {
    it(`${name} replays without a non-determinism error`, async () => {
      const events = history(name).events.map((e) => e.eventType);
      const last = events.at(-1);
      assert.ok(last === 'EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED' || last === 'EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW', `${name}: a complete history`);
      await Worker.runReplayHistory({ workflowsPath, interceptors }, history(name));
    });
  }
});
