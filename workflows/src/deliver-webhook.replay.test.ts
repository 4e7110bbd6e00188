import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from '@temporalio/worker';

/**
 * `deliver:<delivery>` workflows run for hours (the retry schedule), so a new worker replays
 * histories written by the code before it. These are real histories (the bench:webhook-queue
 * runs, ids only), replayed through the current code with the worker's interceptors; a change
 * that would make a running workflow non-deterministic fails here.
 * - `busy-timer`: from before the endpoint-free signal, waiting on 1–30 s timers while the
 *   endpoint was at its cap (kept by `patched('webhook-endpoint-free-signal')`);
 * - `busy-signal`: waiting for `endpointFree` signals (answered `busy` six times).
 */
const workflowsPath = fileURLToPath(new URL('./workflows.ts', import.meta.url));
const interceptors = { workflowModules: [fileURLToPath(new URL('./request-id.workflow-interceptors.ts', import.meta.url))] };
const history = (name: string) => JSON.parse(readFileSync(new URL(`./histories/${name}.json`, import.meta.url), 'utf8')) as unknown;

describe('deliverWebhook replays the histories of running workflows', () => {
  for (const name of ['deliver-webhook.busy-timer', 'deliver-webhook.busy-signal']) {
    it(`${name} replays without a non-determinism error`, async () => {
      const events = (history(name) as { events: { eventType: string }[] }).events.map((e) => e.eventType);
      assert.ok(events.includes('EVENT_TYPE_TIMER_FIRED') && events.at(-1) === 'EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED', 'a complete history with waits');
      await Worker.runReplayHistory({ workflowsPath, interceptors }, history(name));
    });
  }
});
