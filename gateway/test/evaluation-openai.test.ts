import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { Client, Connection } from '@temporalio/client';
import { call, eventually, newKey, newOrganizationWithKey, testEnv } from '@hireloop/devstack/testing';
import { startOpenAiTestServer, turnsIn, type RecordedRequest } from '@hireloop/devstack/openai-test-server';
import type { createRecruitingClient } from '@hireloop/recruiting/client';
import { startAiWorker } from './ai-worker.js';
import { AI_NOTICE_VERSION } from '@hireloop/recruiting/interviews/ai-notice';
import { assertError } from './api-assertions.js';
import { tablesHolding } from './erasure-scan.js';
import { newPosition, tokenOf, uniqueEmail } from './interview-helpers.js';
import { payloadTexts } from './temporal-history.js';

/**
 * The evaluation workflow with the real openai SDK against a local OpenAI-compatible server:
 * a recruiting service and a worker of their own, on their own task queue, share the stack's
 * Postgres and Temporal; results are read through the stack's gateway.
 */
describe('evaluation with the openai SDK', () => {
  let ai: Awaited<ReturnType<typeof startOpenAiTestServer>>;
  let pair: Awaited<ReturnType<typeof startAiWorker>> | undefined;
  let recruiting: ReturnType<typeof createRecruitingClient>;
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let positionId: string;
  let db: pg.Client;
  let connection: Connection;
  let temporal: Client;

  /** The model's reply: every default competency scored from a true quote of the first answer. */
  const evaluationOf = (request: RecordedRequest, rationale = 'Structured answers.') => {
    const answer = turnsIn(request).find((t) => t.role === 'candidate')!;
    const quotes = [{ turnId: answer.turnId, quote: answer.text }];
    return { competencies: ['communication', 'problem_solving', 'collaboration', 'ownership'].map((key, i) => ({ key, score: i === 0 ? 4 : 3, rationale, quotes })) };
  };

  before(async () => {
    ai = await startOpenAiTestServer((request) => JSON.stringify(evaluationOf(request)));
    pair = await startAiWorker(ai, { queue: `openai-test-${process.pid}`, apiKey: 'sk-test-key', model: 'test-model-1' });
    recruiting = pair.recruiting;
    org = await newOrganizationWithKey(['read', 'write']);
    positionId = (await newPosition(org.key)).id;
    db = new pg.Client({ connectionString: testEnv().databaseUrl });
    await db.connect();
    connection = await Connection.connect({ address: testEnv().temporalAddress });
    temporal = new Client({ connection });
  });
  after(async () => {
    await db.end();
    await connection.close();
    await pair?.stop();
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
    // Weights 1 each, scores 4, 3, 3, 3: round(100 · (3+2+2+2)/4 / 4) = 56 (formula of docs/api.md).
    assert.equal(result.overallScore, 56);
    assert.equal(result.recommendation, 'mixed');
    assert.deepEqual(result.competencies[0], { name: 'Communication', score: 4, rationale: 'Structured answers.' });
    assert.equal(result.rubricVersion, 1);
    assert.equal(result.version, 1);
    assert.equal(result.promptVersion, 'rubric-evidence-2026-11-26');
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
    ai.script(marker, [{ status: 401, error: 'Incorrect API key provided: sk-proj-PROVIDER-TEXT' }]);
    const id = await completeInterview(marker);
    const result = await finalEvaluation(id);
    assert.equal(result.status, 'failed');
    assert.equal(result.error.code, 'ai_request_rejected');
    assert.match(result.error.message, /401/);
    // The provider's own text (here, part of a key) is not ours to pass on (PRODUCT.md §3).
    assert.doesNotMatch(JSON.stringify(result), /PROVIDER-TEXT|Incorrect API key/);
    assert.equal(ai.requestsWith(marker).length, 1);
  });

  it('asks once more after a reply that does not match the schema', async () => {
    const marker = `invalid-${Date.now()}`;
    ai.script(marker, [{ content: '{"overallScore": 500}' }]);
    const id = await completeInterview(marker);
    const result = await finalEvaluation(id);
    assert.equal(result.status, 'completed');
    assert.equal(ai.requestsWith(marker).length, 2);
  });

  it('two invalid replies: one retry, then failed with the reason code ai_invalid_output', async () => {
    const marker = `invalid-twice-${Date.now()}`;
    ai.script(marker, [{ content: 'not json at all' }, { json: { competencies: [{ key: 'communication', score: 9 }] } }]);
    const id = await completeInterview(marker);
    const result = await finalEvaluation(id);
    assert.equal(result.status, 'failed', JSON.stringify(result));
    assert.equal(result.error.code, 'ai_invalid_output');
    // Where the reply missed the schema, in the schema's words, not the validator's.
    assert.match(result.error.message, /did not match the schema at [A-Za-z]/);
    assert.doesNotMatch(result.error.message, /expected|Too big|<=/);
    assert.equal(ai.requestsWith(marker).length, 2);
  });

  it('a reply with U+0000 or a lone surrogate in its text is stored without them, not failed with the database\'s error', async () => {
    const marker = `ill-formed-${Date.now()}`;
    // JSON escapes, as a provider sends them: the parsed strings hold U+0000 and a lone U+D800.
    ai.script(marker, [(request) => ({ content: JSON.stringify(evaluationOf(request, 'Clear\u0000 answers \ud800here.')) })]);
    const id = await completeInterview(marker);
    const result = await finalEvaluation(id);
    assert.equal(result.status, 'completed', JSON.stringify(result));
    assert.equal(result.competencies[0].rationale, 'Clear answers \ufffdhere.');
    assert.equal(ai.requestsWith(marker).length, 1, 'asked once: nothing failed');
  });

  it('a person erased while the AI is evaluating them: the reply is stored nowhere, and the workflow ends', async () => {
    const marker = `erased-mid-ai-${Date.now()}`;
    const summary = `Summary naming the person ${marker}`;
    ai.script(marker, [(request) => ({ json: evaluationOf(request, summary) })]);
    const held = ai.hold(marker);
    const id = await completeInterview(marker);
    await held.received;
    const admin = await newKey(org.organization.id, ['read', 'admin']);
    const candidateId = (await db.query<{ candidate_id: string }>('select candidate_id from recruiting.interviews where id = $1', [id])).rows[0]!.candidate_id;
    const erased = await call('DELETE', `/api/v1/candidates/${candidateId}`, { key: admin.key });
    assert.equal(erased.status, 202, erased.text);
    const task = await eventually(async () => (await call('GET', `/api/v1/tasks/${erased.body.data.id}`, { key: admin.key })).body.data, (t) => t.status === 'succeeded' || t.status === 'failed');
    assert.equal(task.status, 'succeeded', JSON.stringify(task));
    held.release();

    const handle = temporal.workflow.getHandle(`evaluate:${id}`);
    const closed = await eventually(async () => (await handle.describe()).status.name, (status) => status !== 'RUNNING', 60_000);
    assert.notEqual(closed, 'RUNNING');
    assertError(await call('GET', `/api/v1/interviews/${id}/evaluation`, { key: org.key }), 404, 'not_found');
    const row = (await db.query('select status, summary, strengths from recruiting.evaluations where interview_id = $1', [id])).rows[0];
    assert.notEqual(row.status, 'completed', 'the result of a person erased meanwhile is not stored');
    assert.equal(row.summary, null);
    assert.deepEqual(row.strengths, []);
    assert.deepEqual(await tablesHolding(db, [marker]), [], 'the AI reply is in no table');
    const history = payloadTexts((await handle.fetchHistory()).events ?? []).join('\n');
    assert.ok(!history.includes(marker), 'nor in the workflow\'s history');
  });
});
