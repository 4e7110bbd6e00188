import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { call, eventually } from '@hireloop/devstack/testing';
import { startOpenAiTestServer, turnsIn, type HeldRequest, type RecordedRequest } from '@hireloop/devstack/openai-test-server';
import { AI_NOTICE_VERSION } from '@hireloop/recruiting/interviews/ai-notice';
import { startTestTopology } from '@hireloop/topology/testing';
import type { Topology } from '@hireloop/topology/topology';
import { newKey, proveNothingLostNothingTwice, report, sleep, statusCounts, steadyWrites } from '../src/writes.js';

const run = promisify(execFile);

/**
 * The worker SIGKILLed while an AI call is in flight: mid evaluation (`evaluate:<interview>`) and
 * mid job description (`jd:<task>`). The worker calls a local OpenAI-compatible server (real HTTP,
 * the real openai SDK), which holds the request; the test SIGKILLs the only worker, starts a new
 * one, then releases the held reply into the dead connection.
 *
 * Expectation: the AI activity heartbeats while it runs (AI_CALL's heartbeat timeout), so Temporal
 * sees the dead worker at that timeout, not at the 3-minute start-to-close timeout, and retries the
 * activity on the new worker. The record ends in its final state once (evaluation `completed`,
 * task `succeeded`), by one workflow; GET /api/v1/events holds one `evaluation.completed` (or
 * `task.succeeded`) and no failure event for it; the OpenAI server saw at most one request for
 * that record after the kill; and the API writes made meanwhile are neither lost nor made twice.
 */
let topology: Topology;
let ai: Awaited<ReturnType<typeof startOpenAiTestServer>>;
const MODEL = 'fault-model-1';

/** Every competency of the default rubric scored 4 from a true quote of the first answer: overall 75. */
const evaluationOf = (req: RecordedRequest) => {
  const answer = turnsIn(req).find((t) => t.role === 'candidate')!;
  return { competencies: ['communication', 'problem_solving', 'collaboration', 'ownership'].map((key) => ({ key, score: 4, rationale: 'Clear.', quotes: [{ turnId: answer.turnId, quote: answer.text }] })) };
};
const EXPECTED_OVERALL = 75;
const jobDescription = { title: 'Fault Engineer', summary: 'Breaks things on purpose.', responsibilities: ['Kill workers'], requirements: ['Patience'], niceToHave: [], markdown: '# Fault Engineer\n' };
const replyFor = (req: RecordedRequest) =>
  JSON.stringify(JSON.stringify(req.body.response_format ?? '').includes('rubric_evaluation') ? evaluationOf(req) : jobDescription);

before(async () => {
  ai = await startOpenAiTestServer(replyFor);
  topology = await startTestTopology('worker-killed-ai', {
    instances: 1,
    roleEnv: { worker: { OPENAI_API_KEY: 'sk-fault-key', OPENAI_BASE_URL: ai.baseUrl, OPENAI_MODEL: MODEL } },
  });
});
after(async () => {
  await topology?.stop();
  await ai?.close();
});

/** What the candidate's browser sends to the invite page: a form POST. */
async function postForm(url: string, fields: [string, string][]) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });
  assert.equal(res.status, 303, await res.text());
}

/**
 * Answers each turn the invite page shows (no JavaScript: one form post per turn) until it shows
 * none: the answers are long enough that the interviewer (offline in recruiting here) asks no
 * follow-up, so the last one completes the interview.
 */
async function answerEveryTurn(page: string, answers: string[]) {
  for (const answer of answers) {
    const html = await (await fetch(page)).text();
    const turn = html.match(/name="turn" value="([^"]+)"/)?.[1];
    assert.ok(turn, `a turn to answer: ${html.slice(0, 300)}`);
    await postForm(`${page}/answer`, [['turn', turn], ['answer', answer]]);
  }
  assert.doesNotMatch(await (await fetch(page)).text(), /name="turn"/, 'no turn left: the interview ended');
}

/** The workflow's one execution, completed, and the attempt its AI activity ended on (with the failure before it). */
async function workflowOutcome(workflowId: string, activity: string) {
  const cli = (args: string[]) => run(topology.temporal.cli, [...args, '--address', topology.temporal.address, '--output', 'json']);
  const count = async (query: string) => Number((JSON.parse((await cli(['workflow', 'count', '--query', query])).stdout) as { count: string | number }).count);
  const completed = await eventually(() => count(`WorkflowId = '${workflowId}' AND ExecutionStatus = 'Completed'`), (n) => n > 0, 60_000, 500);
  const executions = await count(`WorkflowId = '${workflowId}'`);
  const { stdout } = await cli(['workflow', 'show', '--workflow-id', workflowId]);
  const events = (JSON.parse(stdout) as { events: Array<Record<string, any>> }).events;
  const scheduled = new Map<string, string>();
  let started: { attempt: number; lastFailure?: string } | undefined;
  for (const e of events) {
    const s = e['activityTaskScheduledEventAttributes'];
    if (s) scheduled.set(String(e['eventId']), s.activityType?.name);
    const st = e['activityTaskStartedEventAttributes'];
    if (st && scheduled.get(String(st.scheduledEventId)) === activity) {
      started = { attempt: Number(st.attempt), lastFailure: st.lastFailure?.timeoutFailureInfo?.timeoutType ?? st.lastFailure?.message };
    }
  }
  return { completed, executions, started };
}

/** The organization's events of a type, read through the public API. */
const eventsOf = async (key: string, type: string) => {
  const res = await call('GET', `/api/v1/events?type=${type}`, { key, baseUrl: topology.gateways[0] });
  assert.equal(res.status, 200, res.text);
  return res.body.data as Array<{ id: string; type: string; data: Record<string, unknown> }>;
};

interface Course {
  key: string;
  /** In the prompt of the record's AI request. */
  marker: string;
  /** Asks for the work through the public API; returns the record's id. */
  start: () => Promise<string>;
  /** The record through the public API. */
  read: (id: string) => Promise<{ status: string } & Record<string, unknown>>;
  /** The status while the AI call is in flight, the final status expected and the one it must not end in. */
  statuses: { midway: string; final: string; failed: string };
  workflowId: (id: string) => string;
  activity: string;
  /** The event of the final status, the failure event, and the field of its data holding the record's id. */
  events: { done: string; failed: string; idField: string };
}

/**
 * The common course: the work is asked for, its AI request held, the worker SIGKILLed and a new
 * one started, the held reply released; steady candidate writes run throughout. Then the checks
 * of the expectation above, and the facts for the report.
 */
async function killMidCall(course: Course) {
  const gateway = topology.gateways[0]!;
  const load = steadyWrites(topology.gateways, course.key, 1, 200);
  const held: HeldRequest = ai.hold(course.marker);
  const id = await course.start();
  const arrived = await Promise.race([held.received, sleep(60_000).then(() => null)]);
  assert.ok(arrived, 'the worker called the AI provider');
  const worker = topology.process('worker-1');
  worker.signal('SIGKILL');
  await worker.child?.exited;
  const killedAt = Date.now();
  const beforeKill = ai.requestsWith(course.marker).length;
  assert.equal((await course.read(id)).status, course.statuses.midway);
  await worker.start();
  held.release();

  const final = await eventually(() => course.read(id), (r) => r.status === course.statuses.final || r.status === course.statuses.failed, 120_000, 500);
  const doneAfterKillMs = Date.now() - killedAt;
  await load.stop();
  assert.equal(final.status, course.statuses.final, JSON.stringify(final));

  const workflow = await workflowOutcome(course.workflowId(id), course.activity);
  assert.equal(workflow.executions, 1, 'one workflow');
  assert.equal(workflow.started?.attempt, 2, `the AI activity was retried once, by the new worker: ${JSON.stringify(workflow.started)}`);
  const afterKill = ai.requestsWith(course.marker).length - beforeKill;
  assert.ok(afterKill <= 1, `${afterKill} AI requests after the kill`);
  assert.equal(beforeKill + afterKill, 2, 'the held request and the retry');

  const done = await eventually(() => eventsOf(course.key, course.events.done), (e) => e.length > 0, 60_000, 500);
  assert.equal(done.length, 1, JSON.stringify(done));
  assert.equal(done[0]!.data[course.events.idField], id);
  assert.deepEqual(await eventsOf(course.key, course.events.failed), []);

  const proof = await proveNothingLostNothingTwice(gateway, course.key, load.writes);
  const facts = {
    final: final.status, workflows: workflow.executions, aiActivity: workflow.started, aiRequestsBeforeKill: beforeKill, aiRequestsAfterKill: afterKill, doneAfterKillMs,
    [`${course.events.done} events`]: done.length, writes: statusCounts(load.writes), ...proof,
  };
  return { final, facts };
}

describe('fault: the worker SIGKILLed mid AI call', () => {
  it('mid evaluation: the evaluation completes once, with one evaluation.completed', async () => {
    const key = await newKey(topology);
    const gateway = topology.gateways[0]!;
    const marker = `eval-${randomUUID().slice(0, 8)}`;
    const position = await call('POST', '/api/v1/positions', { key, baseUrl: gateway, body: { title: 'Fault Engineer', interviewQuestions: ['Why us?', 'Hardest bug?'] } });
    assert.equal(position.status, 201, position.text);

    const { final, facts } = await killMidCall({
      key,
      marker,
      start: async () => {
        const scheduled = await call('POST', '/api/v1/interviews', { key, baseUrl: gateway, body: { positionId: position.body.data.id, candidate: { email: `${marker}@example.com`, name: 'Grace Hopper' } } });
        assert.equal(scheduled.status, 201, scheduled.text);
        const page = `${gateway}${new URL(scheduled.body.data.inviteUrl as string).pathname}`;
        await postForm(`${page}/start`, [['consent', 'agree'], ['notice', AI_NOTICE_VERSION]]);
        await answerEveryTurn(page, [
          `The mission (${marker}), because the product helps people find work they are good at every day.`,
          'A deadlock under load that only appeared with two workers, found by logging every lock taken and released.',
        ]);
        return scheduled.body.data.id as string;
      },
      read: async (id) => (await call('GET', `/api/v1/interviews/${id}/evaluation`, { key, baseUrl: gateway })).body.data,
      statuses: { midway: 'processing', final: 'completed', failed: 'failed' },
      workflowId: (id) => `evaluate:${id}`,
      activity: 'evaluateAndSave',
      events: { done: 'evaluation.completed', failed: 'evaluation.failed', idField: 'interviewId' },
    });
    assert.equal(final['model'], MODEL);
    assert.equal(final['overallScore'], EXPECTED_OVERALL);
    report('worker SIGKILLed mid evaluation', facts);
  });

  it('mid job description: the task succeeds once, with one task.succeeded', async () => {
    const key = await newKey(topology);
    const gateway = topology.gateways[0]!;
    const marker = `jd-${randomUUID().slice(0, 8)}`;
    const { final, facts } = await killMidCall({
      key,
      marker,
      start: async () => {
        const res = await call('POST', '/api/v1/ai/job-description', { key, baseUrl: gateway, body: { title: `Fault Engineer ${marker}` } });
        assert.equal(res.status, 202, res.text);
        return res.body.data.id as string;
      },
      read: async (id) => (await call('GET', `/api/v1/tasks/${id}`, { key, baseUrl: gateway })).body.data,
      statuses: { midway: 'running', final: 'succeeded', failed: 'failed' },
      workflowId: (id) => `jd:${id}`,
      activity: 'writeAndSaveJobDescription',
      events: { done: 'task.succeeded', failed: 'task.failed', idField: 'id' },
    });
    assert.deepEqual(final['result'], { ...jobDescription, model: MODEL });
    report('worker SIGKILLed mid job description', facts);
  });
});
