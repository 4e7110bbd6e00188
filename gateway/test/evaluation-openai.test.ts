import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { call, eventually, newOrganizationWithKey, startExtraProcess, testEnv } from '@hireloop/devstack/testing';
import { startOpenAiTestServer } from '@hireloop/devstack/openai-test-server';
import { createRecruitingClient } from '@hireloop/recruiting/client';
import { AI_NOTICE_VERSION } from '@hireloop/recruiting/interviews/ai-notice';
import { newPosition, tokenOf, uniqueEmail } from './interview-helpers.js';

/**
 * The evaluation workflow with the real openai SDK against a local OpenAI-compatible server:
 * a recruiting service and a worker of their own, on their own task queue, share the stack's
 * Postgres and Temporal; results are read through the stack's gateway.
 */
describe('evaluation with the openai SDK', () => {
  let ai: Awaited<ReturnType<typeof startOpenAiTestServer>>;
  let processes: Awaited<ReturnType<typeof startExtraProcess>>[] = [];
  let recruiting: ReturnType<typeof createRecruitingClient>;
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let positionId: string;

  const evaluation = JSON.stringify({
    overallScore: 82,
    recommendation: 'yes',
    summary: 'Clear, concrete answers.',
    strengths: ['Concrete examples'],
    concerns: ['Little on testing'],
    competencies: [{ name: 'Communication', score: 4, rationale: 'Structured answers.' }],
  });

  before(async () => {
    ai = await startOpenAiTestServer(() => evaluation);
    const queue = `openai-test-${process.pid}`;
    const shared = { TEMPORAL_TASK_QUEUE: queue };
    const service = await startExtraProcess('services/recruiting/src/index.ts', 'RECRUITING_PORT', shared);
    const worker = await startExtraProcess('workflows/src/worker.ts', 'WORKER_PORT', {
      ...shared,
      RECRUITING_URL: service.url,
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: ai.baseUrl,
      OPENAI_MODEL: 'test-model-1',
    });
    processes = [service, worker];
    recruiting = createRecruitingClient(service.url, testEnv().internalTokenKeys);
    org = await newOrganizationWithKey(['read', 'write']);
    positionId = (await newPosition(org.key)).id;
  });
  after(async () => {
    for (const p of processes) await p.child.stop();
    await ai.close();
  });

  /** Schedules through this test's recruiting service and answers as the candidate would. */
  async function completeInterview(marker: string) {
    const interview = await recruiting.forOrganization(org.organization.id).interviews.schedule.mutate({
      positionId,
      title: `Interview ${marker}`,
      candidate: { email: uniqueEmail(), name: 'Linus' },
      duration: 30,
      expiresInDays: 14,
    });
    const token = tokenOf(interview.inviteUrl);
    await recruiting.system.invites.start.mutate({ token, consent: { noticeVersion: AI_NOTICE_VERSION } });
    await recruiting.system.invites.submit.mutate({ token, answers: ['Because of the mission.', 'A deadlock under load.'] });
    return interview.id;
  }

  const finalEvaluation = (id: string) =>
    eventually(
      async () => (await call('GET', `/api/v1/interviews/${id}/evaluation`, { key: org.key })).body.data,
      (e) => e.status === 'completed' || e.status === 'failed',
      60_000,
    );

  it('completes with the provider\'s structured result, sent with the key and model from config', async () => {
    const marker = `ok-${Date.now()}`;
    const id = await completeInterview(marker);
    const result = await finalEvaluation(id);
    assert.equal(result.status, 'completed', JSON.stringify(result));
    assert.equal(result.model, 'test-model-1');
    assert.equal(result.overallScore, 82);
    assert.equal(result.recommendation, 'yes');
    assert.deepEqual(result.competencies, [{ name: 'Communication', score: 4, rationale: 'Structured answers.' }]);
    const [request] = ai.requestsWith(marker);
    assert.equal(request?.authorization, 'Bearer sk-test-key');
    assert.equal(request?.body.model, 'test-model-1');
    assert.ok(JSON.stringify(request?.body.response_format).includes('json_schema'));
  });

  it('retries a 429 and a 503 with backoff, then completes', async () => {
    const marker = `retry-${Date.now()}`;
    ai.script(marker, [{ status: 429 }, { status: 503 }]);
    const id = await completeInterview(marker);
    const result = await finalEvaluation(id);
    assert.equal(result.status, 'completed', JSON.stringify(result));
    assert.equal(ai.requestsWith(marker).length, 3);
  });

  it('fails cleanly, without retrying, when the provider refuses the request (401)', async () => {
    const marker = `denied-${Date.now()}`;
    ai.script(marker, [{ status: 401, error: 'Incorrect API key provided' }]);
    const id = await completeInterview(marker);
    const result = await finalEvaluation(id);
    assert.equal(result.status, 'failed');
    assert.equal(result.error.code, 'ai_request_rejected');
    assert.match(result.error.message, /401/);
    assert.equal(ai.requestsWith(marker).length, 1);
  });

  it('retries a reply that does not match the schema', async () => {
    const marker = `invalid-${Date.now()}`;
    ai.script(marker, [{ content: '{"overallScore": 500}' }]);
    const id = await completeInterview(marker);
    const result = await finalEvaluation(id);
    assert.equal(result.status, 'completed');
    assert.equal(ai.requestsWith(marker).length, 2);
  });
});
