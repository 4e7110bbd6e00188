import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { call, eventually, newOrganizationWithKey, startExtraGateway, startExtraProcess } from '@hireloop/devstack/testing';
import { promptOf, startOpenAiTestServer } from '@hireloop/devstack/openai-test-server';
import { launchChromium } from '@hireloop/devstack/chromium';
import { answerTurn, newPosition, openInvite, schedule, startInvite, tokenOf } from './interview-helpers.js';
import { skipWithoutChromium } from './console-helpers.js';

// The AI never blocks the candidate (PRODUCT.md §12): a recruiting service of this file's own
// asks its follow-ups through the real openai SDK of the local OpenAI-compatible test server, with
// a short deadline, a gateway of its own serves the invite page from it, and a worker of its own
// (on its own task queue) evaluates through the same server. Whatever the provider
// does (hang, fail, talk nonsense, or ask about a protected topic) the candidate gets the next
// scripted question, and the answer turn records why no follow-up came.

const DEADLINE_MS = 1500;

describe('the interviewer when the AI fails', () => {
  let ai: Awaited<ReturnType<typeof startOpenAiTestServer>>;
  let processes: Awaited<ReturnType<typeof startExtraProcess>>[] = [];
  let gateway: string;
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let positionId: string;

  before(async () => {
    // Unscripted: no follow-up; an evaluation scores every competency without quotes.
    ai = await startOpenAiTestServer((request) =>
      (request.body.response_format as { json_schema?: { name?: string } }).json_schema?.name === 'rubric_evaluation'
        ? JSON.stringify({ competencies: ['communication', 'problem_solving', 'collaboration', 'ownership'].map((key) => ({ key, score: 3, rationale: 'Scripted.', quotes: [] })) })
        : JSON.stringify({ followUp: null }),
    );
    const ownQueue = { TEMPORAL_TASK_QUEUE: `interviewer-test-${process.pid}`, OPENAI_API_KEY: 'sk-interviewer', OPENAI_BASE_URL: ai.baseUrl, OPENAI_MODEL: 'interviewer-model' };
    const recruiting = await startExtraProcess('services/recruiting/src/index.ts', 'RECRUITING_PORT', { ...ownQueue, INTERVIEWER_FOLLOW_UP_TIMEOUT_MS: String(DEADLINE_MS) });
    const worker = await startExtraProcess('workflows/src/worker.ts', 'WORKER_PORT', { ...ownQueue, RECRUITING_URL: recruiting.url });
    const gw = await startExtraGateway({ RECRUITING_URL: recruiting.url });
    processes = [recruiting, worker, gw];
    gateway = gw.url;
    org = await newOrganizationWithKey(['read', 'write']);
    positionId = (await newPosition(org.key, { interviewQuestions: ['Tell us about a hard bug.', 'What would you improve here?'] })).id;
  });
  after(async () => {
    for (const p of processes.reverse()) await p.child.stop();
    await ai.close();
  });

  /** A started interview on this file's gateway, and its first turn. */
  async function started() {
    const interview = await schedule(org.key, positionId);
    const token = tokenOf(interview.inviteUrl);
    assert.equal((await startInvite(token, gateway)).status, 303);
    const { turn } = await openInvite(token, gateway);
    assert.ok(turn);
    return { interview, token, turn };
  }
  const transcript = async (id: string) => (await call('GET', `/api/v1/interviews/${id}/transcript`, { key: org.key })).body.data.turns as { kind: string; text: string; followUpSkipped?: string }[];
  const marker = (name: string) => `${name}-${process.hrtime.bigint()}`;

  it('a scripted follow-up is asked, generated from the question, its anchors and the answer delimited as data', async () => {
    const m = marker('asked');
    ai.script(m, [{ json: { followUp: 'Which of those steps did you take yourself?' } }]);
    const { token, turn } = await started();
    await answerTurn(token, turn.id, `We fixed it as a team. ${m}`, [], gateway);
    const next = await openInvite(token, gateway);
    assert.deepEqual([next.turn?.kind, next.turn?.text], ['follow_up', 'Which of those steps did you take yourself?']);
    const [request] = ai.requestsWith(m);
    assert.equal(request?.authorization, 'Bearer sk-interviewer');
    assert.equal(request?.body.model, 'interviewer-model');
    const prompt = promptOf(request!);
    assert.match(prompt.user, /Scripted question: Tell us about a hard bug\./);
    assert.match(prompt.user, /score 5: /, 'the competencies\' anchors');
    const tag = prompt.user.match(/<<<CANDIDATE_DATA (\w+)>>>/)?.[1];
    assert.ok(tag);
    const data = prompt.user.slice(prompt.user.indexOf(`<<<CANDIDATE_DATA ${tag}>>>`), prompt.user.indexOf(`<<<END CANDIDATE_DATA ${tag}>>>`));
    assert.ok(data.includes(m), 'the answer sits inside the data block');
    assert.match(prompt.system, /written in English/);
  });

  const failures: [string, Parameters<typeof ai.script>[1], string][] = [
    ['hangs', [{ hang: true }], 'timeout'],
    ['answers 500', [{ status: 500 }], 'provider_error'],
    ['answers 429', [{ status: 429 }], 'provider_error'],
    ['answers something that is not JSON', [{ content: 'Happy to help! Why?' }], 'invalid_output'],
    ['answers JSON of another shape', [{ json: { question: 'Why?' } }], 'invalid_output'],
    ['answers two questions at once', [{ json: { followUp: 'What happened? And who fixed it?' } }], 'invalid_output'],
  ];
  for (const [what, replies, reason] of failures) {
    it(`when the provider ${what}, the candidate gets the next scripted question and the turn records ${reason}`, async () => {
      const m = marker(reason);
      ai.script(m, replies);
      const { interview, token, turn } = await started();
      const posted = await answerTurn(token, turn.id, `It was a race in our cache. ${m}`, [], gateway);
      assert.equal(posted.status, 303);
      const next = await openInvite(token, gateway);
      assert.deepEqual([next.turn?.kind, next.turn?.text], ['question', 'What would you improve here?']);
      assert.ok(!next.html.includes('role="alert"') && !/provider|timed? ?out|invalid/i.test(next.html), 'the candidate never sees an AI error');
      const answer = (await transcript(interview.id)).find((t) => t.kind === 'answer');
      assert.equal(answer?.followUpSkipped, reason);
    });
  }

  it('a follow-up about a protected topic is dropped: it never reaches the page or the transcript', async () => {
    const forbidden = ['Do your children ever keep you from being on call?', 'How old were you when you started programming?', 'Does your religion allow you to work on weekends?'];
    for (const question of forbidden) {
      const m = marker('forbidden');
      ai.script(m, [{ json: { followUp: question } }]);
      const { interview, token, turn } = await started();
      await answerTurn(token, turn.id, `Yes. ${m}`, [], gateway);
      const next = await openInvite(token, gateway);
      assert.equal(next.turn?.text, 'What would you improve here?');
      assert.ok(!next.html.includes(question), 'never on the page');
      const turns = await transcript(interview.id);
      assert.ok(!turns.some((t) => t.text === question), 'never stored');
      assert.equal(turns.find((t) => t.kind === 'answer')?.followUpSkipped, 'forbidden_topic');
    }
  });

  it('integrity signals never reach the evaluation: its prompt carries the answers, not the signals', async () => {
    const m = marker('signals');
    const { interview, token, turn } = await started();
    const signals = { paste: [{ at: new Date().toISOString(), characters: 98_765 }], focusLost: { count: 4_321, seconds: 8_765 }, typingSeconds: 5_432 };
    await answerTurn(token, turn.id, `We bisected the commits until the race showed. ${m}`, [['signals', JSON.stringify(signals)]], gateway);
    const second = await openInvite(token, gateway);
    await answerTurn(token, second.turn!.id, 'I would add tracing to the deploy pipeline first.', [['signals', JSON.stringify(signals)]], gateway);
    const stored = (await call('GET', `/api/v1/interviews/${interview.id}/transcript`, { key: org.key })).body.data.turns.filter((t: { signals?: unknown }) => t.signals);
    assert.equal(stored.length, 2, 'the signals are kept on the answers');
    const evaluation = await eventually(
      async () => (await call('GET', `/api/v1/interviews/${interview.id}/evaluation`, { key: org.key })).body.data,
      (e) => e.status === 'completed' || e.status === 'failed',
    );
    assert.equal(evaluation.status, 'completed', JSON.stringify(evaluation));
    const prompts = ai.requestsWith(m).filter((r) => (r.body.response_format as { json_schema?: { name?: string } }).json_schema?.name === 'rubric_evaluation');
    assert.equal(prompts.length, 1, 'the evaluation was asked of the model');
    const sent = JSON.stringify(prompts[0]!.body.messages);
    assert.ok(sent.includes('We bisected the commits'), 'the answers are in the prompt');
    for (const value of ['98765', '4321', '8765', '5432', 'paste', 'focusLost', 'typingSeconds']) assert.ok(!sent.includes(value), `no ${value} in the prompt`);
  });

  it('with JavaScript, an indicator shows while the follow-up is prepared, and the follow-up appears only once generated and checked', { skip: skipWithoutChromium }, async () => {
    const m = marker('held');
    const held = ai.hold(m);
    const { token } = await started();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${gateway}/i/${token}`);
      await page.fill('#answer', `We bisected it. ${m}`);
      await page.click('#send');
      await held.received;
      assert.match((await page.textContent('#preparing')) ?? '', /interviewer is reading/, 'the indicator, while the AI works');
      assert.equal(await page.textContent('#turn-text'), 'Tell us about a hard bug.', 'nothing unchecked is shown meanwhile');
      assert.equal(await page.getAttribute('#send', 'aria-disabled'), 'true');
      ai.script(m, [{ json: { followUp: 'How did you narrow it down to that commit?' } }]);
      held.release();
      await page.locator('#turn-text .kind').waitFor();
      assert.match((await page.textContent('#turn-text')) ?? '', /How did you narrow it down to that commit\?/);
    } finally {
      await browser.close();
    }
  });
});
