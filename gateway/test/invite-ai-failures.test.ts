import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { call, newOrganizationWithKey, startExtraGateway, startExtraProcess } from '@hireloop/devstack/testing';
import { promptOf, startOpenAiTestServer } from '@hireloop/devstack/openai-test-server';
import { launchChromium } from '@hireloop/devstack/chromium';
import { answerTurn, newPosition, openInvite, schedule, startInvite, tokenOf } from './interview-helpers.js';
import { skipWithoutChromium } from './console-helpers.js';

// The AI never blocks the candidate (PRODUCT.md §12): a recruiting service of this file's own
// asks its follow-ups through the real openai SDK of the local OpenAI-compatible test server, with
// a short deadline, and a gateway of its own serves the invite page from it. Whatever the provider
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
    ai = await startOpenAiTestServer(() => JSON.stringify({ followUp: null }));
    const recruiting = await startExtraProcess('services/recruiting/src/index.ts', 'RECRUITING_PORT', {
      OPENAI_API_KEY: 'sk-interviewer',
      OPENAI_BASE_URL: ai.baseUrl,
      OPENAI_MODEL: 'interviewer-model',
      INTERVIEWER_FOLLOW_UP_TIMEOUT_MS: String(DEADLINE_MS),
    });
    const gw = await startExtraGateway({ RECRUITING_URL: recruiting.url });
    processes = [recruiting, gw];
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
