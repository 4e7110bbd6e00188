import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { call, eventually, newOrganizationWithKey, testEnv, testRecruiting } from '@hireloop/devstack/testing';
import { answerTurn, newPosition, openInvite, postForm, schedule, startInvite, submitInvite, tokenOf, turnOf, type PageTurn } from './interview-helpers.js';
import { stackConnections } from './stack-connections.js';

// The invite page as a conversation (PRODUCT.md §12), with JavaScript off: plain form posts, each
// answered by a redirect to the page, which shows the one turn to answer now. The stack runs the
// offline interviewer, which asks a follow-up on a thin answer, deterministically.

const { db } = stackConnections();
const FULL = 'I rebuilt our deploy pipeline myself, cut release time from an hour to ten minutes, and wrote down what I learned.';

describe('the invite page asks one turn at a time', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let positionId: string;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
    positionId = (await newPosition(org.key, { interviewQuestions: ['Why this role?', 'Tell us about a hard bug.'] })).id;
  });
  const transcript = async (id: string) => (await call('GET', `/api/v1/interviews/${id}/transcript`, { key: org.key })).body.data.turns as { id: string; kind: string; text: string; questionId: string; followUpSkipped?: string; signals?: unknown }[];
  const started = async () => {
    const interview = await schedule(org.key, positionId);
    const token = tokenOf(interview.inviteUrl);
    assert.equal((await startInvite(token)).status, 303);
    return { interview, token };
  };
  const currentTurn = async (token: string): Promise<PageTurn> => {
    const { turn } = await openInvite(token);
    assert.ok(turn, 'the page shows a turn');
    return turn;
  };

  it('a thin answer ("Yes.") gets a follow-up, a full one the next question; the last answer ends it and the evaluation runs', async () => {
    const { interview, token } = await started();
    const first = await openInvite(token);
    assert.equal(first.turn?.text, 'Why this role?');
    assert.ok(!first.html.includes('Tell us about a hard bug.'), 'only the current question is shown');
    assert.match(first.html, /Question 1 of 2/);
    assert.match(first.html, /<label for="answer">/, 'the answer field has a label');

    assert.equal((await answerTurn(token, first.turn.id, 'Yes.')).status, 303);
    const followUp = await currentTurn(token);
    assert.equal(followUp.kind, 'follow_up');
    assert.match(followUp.text, /concrete example/);
    assert.equal((await answerTurn(token, followUp.id, FULL)).status, 303);
    const second = await currentTurn(token);
    assert.deepEqual([second.kind, second.text], ['question', 'Tell us about a hard bug.']);
    const last = await answerTurn(token, second.id, FULL);
    assert.equal(last.status, 303);
    const done = await openInvite(token);
    assert.equal(done.turn, null);
    assert.match(done.html, /Thank you/);

    const turns = await transcript(interview.id);
    assert.deepEqual(turns.map((t) => t.kind), ['question', 'answer', 'follow_up', 'answer', 'question', 'answer']);
    assert.deepEqual(turns.map((t) => t.text), ['Why this role?', 'Yes.', followUp.text, FULL, 'Tell us about a hard bug.', FULL]);
    assert.equal(turns[2]?.questionId, turns[0]?.questionId, 'the follow-up belongs to its scripted question');
    assert.ok(turns.every((t) => t.followUpSkipped === undefined), 'nothing was skipped');
    const evaluation = await eventually(
      async () => (await call('GET', `/api/v1/interviews/${interview.id}/evaluation`, { key: org.key })).body.data,
      (e) => e.status === 'completed' || e.status === 'failed',
    );
    assert.equal(evaluation.status, 'completed', JSON.stringify(evaluation));
    assert.deepEqual(evaluation.answers.map((a: { answer: string }) => a.answer), ['Yes.', FULL], 'one entry per scripted question, its first answer');
  });

  it('opening the link again, in any tab, resumes at the current turn', async () => {
    const { token } = await started();
    const first = await currentTurn(token);
    await answerTurn(token, first.id, 'Yes.');
    const again = await currentTurn(token);
    const elsewhere = await currentTurn(token);
    assert.equal(again.id, elsewhere.id);
    assert.equal(again.kind, 'follow_up');
  });

  it('a turn sent twice (a refresh, a second tab, a retry) is stored once', async () => {
    const { interview, token } = await started();
    const first = await currentTurn(token);
    const both = await Promise.all([answerTurn(token, first.id, FULL), answerTurn(token, first.id, FULL)]);
    assert.deepEqual(both.map((r) => r.status), [303, 303]);
    assert.equal((await answerTurn(token, first.id, FULL)).status, 303, 'and once more later');
    const answers = (await transcript(interview.id)).filter((t) => t.kind === 'answer');
    assert.deepEqual(answers.map((t) => t.text), [FULL]);
    const last = await currentTurn(token);
    assert.equal(last.text, 'Tell us about a hard bug.');
    // The last answer twice: the first completes the interview, the second is still the same turn stored once.
    const ending = await Promise.all([answerTurn(token, last.id, FULL), answerTurn(token, last.id, FULL)]);
    assert.deepEqual(ending.map((r) => r.status), [303, 303]);
    assert.equal((await answerTurn(token, last.id, FULL)).status, 303);
    assert.equal((await transcript(interview.id)).filter((t) => t.kind === 'answer').length, 2);
    assert.equal((await call('GET', `/api/v1/interviews/${interview.id}`, { key: org.key })).body.data.status, 'completed');
  });

  it('answers to one turn racing from several tabs: one is stored, with one next question; the others get the current turn back', async () => {
    const { interview, token } = await started();
    const first = await currentTurn(token);
    const texts = Array.from({ length: 6 }, (_, i) => `${FULL} (tab ${i + 1})`);
    const results = await Promise.all(texts.map((text) => answerTurn(token, first.id, text)));
    const turns = await transcript(interview.id);
    assert.deepEqual(turns.map((t) => t.kind), ['question', 'answer', 'question'], 'one answer, then the next question once');
    const winner = texts.indexOf(turns[1]!.text);
    assert.ok(winner >= 0);
    assert.deepEqual(results.map((r) => r.status), texts.map((_, i) => (i === winner ? 303 : 409)));
    for (const [i, r] of results.entries()) if (i !== winner) assert.ok(r.text.includes(`(tab ${i + 1})`), 'the text typed in that tab is kept');
  });

  it('an answer to an interview whose content was scrubbed meanwhile (an erasure in flight) is not stored', async () => {
    const { interview, token } = await started();
    const first = await currentTurn(token);
    await db.query(`update recruiting.interviews set content_scrubbed_at = now() where id = $1`, [interview.id]);
    const res = await answerTurn(token, first.id, FULL);
    assert.equal(res.status, 409);
    assert.deepEqual((await transcript(interview.id)).map((t) => t.kind), ['question']);
  });

  it('asked for with Prefer: return=representation (the page\'s script), the answer is the next page itself, not a redirect', async () => {
    const { interview, token } = await started();
    const first = await currentTurn(token);
    const inPlace = (turnId: string, answer: string, prefer = 'return=representation') =>
      fetch(`${testEnv().gatewayUrl}/i/${token}/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', prefer },
        body: new URLSearchParams([['turn', turnId], ['answer', answer]]).toString(),
        redirect: 'manual',
      });
    const res = await inPlace(first.id, 'Yes.');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('preference-applied'), 'return=representation');
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const followUp = turnOf(await res.text());
    assert.equal(followUp?.kind, 'follow_up', 'the page shows the follow-up the answer got');
    assert.deepEqual(followUp, await currentTurn(token), 'the same page as the redirect would show');
    // Sent again: stored once, and the same page; among other preferences, and in any case.
    const again = await inPlace(first.id, 'Yes.', 'respond-async, RETURN = representation; x=1');
    assert.equal(again.status, 200);
    assert.equal(turnOf(await again.text())?.id, followUp?.id);
    // A stale turn is still the 409 page with the text kept; other preferences get the 303.
    const stale = await inPlace(first.id, 'Other words from an old tab.');
    assert.equal(stale.status, 409);
    assert.match(await stale.text(), /Other words from an old tab\./);
    const minimal = await inPlace(followUp!.id, FULL, 'return=minimal');
    assert.equal(minimal.status, 303);
    assert.equal(minimal.headers.get('preference-applied'), null);
    assert.deepEqual((await transcript(interview.id)).filter((t) => t.kind === 'answer').map((t) => t.text), ['Yes.', FULL]);
  });

  it('a stale page gets the current turn back with the typed text kept, and nothing is stored', async () => {
    const { interview, token } = await started();
    const first = await currentTurn(token);
    await answerTurn(token, first.id, FULL);
    const stale = await answerTurn(token, first.id, 'Something else I typed in the old tab.');
    assert.equal(stale.status, 409);
    assert.match(stale.text, /already answered/);
    assert.match(stale.text, /<textarea[^>]*>Something else I typed in the old tab\.<\/textarea>/, 'the text is kept in the form');
    assert.match(stale.text, /Tell us about a hard bug\./, 'the current turn');
    assert.equal((await transcript(interview.id)).filter((t) => t.kind === 'answer').length, 1);
    // The one-page form of before (all answers at once) is a stale page too.
    const old = await postForm(`/i/${token}/submit`, [['answer', 'old one'], ['answer', 'The second answer, typed in the old form.']]);
    assert.equal(old.status, 409);
    assert.match(old.text, /one question at a time/);
    assert.match(old.text, /The second answer, typed in the old form\./);
    assert.equal((await transcript(interview.id)).filter((t) => t.kind === 'answer').length, 1);
    // That page's address (the form's, /answer) opened again is the interview's page, not a 404.
    for (const step of ['answer', 'start', 'submit', 'decline']) {
      const again = await fetch(`${testEnv().gatewayUrl}/i/${token}/${step}`, { redirect: 'manual' });
      assert.equal(again.status, 303, step);
      assert.equal(again.headers.get('location'), `/i/${token}`, step);
    }
    assert.equal((await currentTurn(token)).text, 'Tell us about a hard bug.', 'and nothing changed');
  });

  it('an empty answer or one over 10 000 characters: a clear message, the text kept, nothing stored; the service answers 422', async () => {
    const { interview, token } = await started();
    const turn = await currentTurn(token);
    const long = `${'x'.repeat(10_000)}yz`;
    const tooLong = await answerTurn(token, turn.id, long);
    assert.equal(tooLong.status, 422);
    assert.match(tooLong.text, /role="alert"[^>]*>Your answer is 10,002 characters long/);
    assert.ok(tooLong.text.includes(`>${long}</textarea>`), 'the text is kept');
    // The field says it is invalid, and why, to assistive technology.
    assert.match(tooLong.text, /<textarea id="answer"[^>]* aria-invalid="true" aria-describedby="problem turn-text answer-hint">/);
    const empty = await answerTurn(token, turn.id, '   ');
    assert.equal(empty.status, 422);
    assert.match(empty.text, /Please write an answer/);
    assert.equal((await transcript(interview.id)).filter((t) => t.kind === 'answer').length, 0);
    // The service refuses it too (validation_failed: 422 on every public surface).
    await assert.rejects(testRecruiting().system.invites.answer.mutate({ token, turnId: turn.id, answer: long }), (err: { data?: { appCode?: string } }) => {
      assert.equal(err.data?.appCode, 'validation_failed');
      return true;
    });
  });

  it('characters are code points, as the API counts them: 10 000 emoji are an answer, 10 001 are too long', async () => {
    const { interview, token } = await started();
    const turn = await currentTurn(token);
    const over = '\u{1F600}'.repeat(10_001);
    const tooLong = await answerTurn(token, turn.id, over);
    assert.equal(tooLong.status, 422);
    assert.match(tooLong.text, /role="alert"[^>]*>Your answer is 10,001 characters long/);
    const most = '\u{1F600}'.repeat(10_000);
    const res = await answerTurn(token, turn.id, most);
    assert.equal(res.status, 303, `10 000 emoji: ${res.status}`);
    assert.equal((await transcript(interview.id)).find((t) => t.kind === 'answer')?.text, most);
  });

  it('a form\'s line breaks (CRLF) are stored as LF and count as one character each, as the page\'s script sends them', async () => {
    const { interview, token } = await started();
    const turn = await currentTurn(token);
    const lines = `${'x'.repeat(4_999)}\r\n${'y'.repeat(5_000)}`;
    const res = await answerTurn(token, turn.id, lines);
    assert.equal(res.status, 303, `exactly 10 000 characters with its line break: ${res.status}`);
    assert.equal((await transcript(interview.id)).find((t) => t.kind === 'answer')?.text, lines.replace('\r\n', '\n'));
  });

  it('an answer with U+0000 gets a clear message with the rest of its text kept; a turn field that cannot be a turn is a stale page', async () => {
    const { interview, token } = await started();
    const turn = await currentTurn(token);
    const nul = await answerTurn(token, turn.id, 'Before\u0000after.');
    assert.equal(nul.status, 422);
    assert.match(nul.text, /role="alert"[^>]*>Your answer contained a character that cannot be stored/);
    assert.ok(nul.text.includes('>Beforeafter.</textarea>'), 'the text is kept, without the character');
    for (const forged of ['t'.repeat(101), 'turn\u0000x']) {
      const stale = await answerTurn(token, forged, FULL);
      assert.equal(stale.status, 409, `turn ${JSON.stringify(forged.slice(0, 10))}`);
      assert.ok(stale.text.includes(`>${FULL}</textarea>`), 'the text is kept');
    }
    assert.equal((await transcript(interview.id)).filter((t) => t.kind === 'answer').length, 0);
    assert.equal((await answerTurn(token, turn.id, FULL)).status, 303, 'the page still takes the answer');
  });

  it('the console preview refuses a turn holding U+0000 (422), as every input does', async () => {
    const position = (await call('GET', `/api/v1/positions/${positionId}`, { key: org.key })).body.data;
    const questionId = position.questions[0].id as string;
    const preview = testRecruiting().forOrganization(org.organization.id).interviews.preview;
    const turns = (answer: string) => [{ kind: 'question' as const, questionId, text: 'Why this role?' }, { kind: 'answer' as const, questionId, text: answer }];
    assert.ok((await preview.mutate({ positionId, turns: turns('Because I like it.') })).turn, 'a well-formed answer goes on');
    await assert.rejects(preview.mutate({ positionId, turns: turns('Because\u0000.') }), (err: { data?: { appCode?: string } }) => {
      assert.equal(err.data?.appCode, 'validation_failed');
      return true;
    });
  });

  it('a form body that is not UTF-8 (raw bytes, or a percent-escape of them) gets a 400 page, and nothing is stored', async () => {
    const { interview, token } = await started();
    const turn = await currentTurn(token);
    const prefix = Buffer.from(`turn=${encodeURIComponent(turn.id)}&answer=`);
    for (const body of [Buffer.concat([prefix, Buffer.from([0x61, 0xff, 0xfe, 0x62])]), Buffer.concat([prefix, Buffer.from('a%FFb')])]) {
      const res = await fetch(`${testEnv().gatewayUrl}/i/${token}/answer`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
      assert.equal(res.status, 400);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/);
      assert.match(await res.text(), /could not be read/);
    }
    assert.equal((await transcript(interview.id)).filter((t) => t.kind === 'answer').length, 0);
  });

  it('past the time budget no follow-ups are asked: the answer records `budget`, and nothing is cut off', async () => {
    const { interview, token } = await started();
    await db.query(`update recruiting.interviews set started_at = now() - interval '31 minutes' where id = $1`, [interview.id]);
    const page = await openInvite(token);
    assert.match(page.html, /suggested time is up/);
    await answerTurn(token, page.turn!.id, 'Yes.');
    const next = await currentTurn(token);
    assert.equal(next.text, 'Tell us about a hard bug.', 'the next scripted question, no follow-up');
    const answer = (await transcript(interview.id)).find((t) => t.kind === 'answer');
    assert.equal(answer?.followUpSkipped, 'budget');
  });

  it('an answer whose follow-up was never decided (its process died) is moved on by the next reader, skipped as timeout', async () => {
    const { interview, token } = await started();
    const first = await currentTurn(token);
    // What a recruiting process leaves behind when it dies between storing the answer and the follow-up.
    await db.query(
      `insert into recruiting.interview_turns (id, organization_id, interview_id, seq, role, kind, question_id, text, at)
       select 'turn_orphan' || substr(id, 5), organization_id, id, 1, 'candidate', 'answer', $2, 'Yes.', now() - interval '1 minute' from recruiting.interviews where id = $1`,
      [interview.id, (await transcript(interview.id))[0]!.questionId],
    );
    assert.equal((await answerTurn(token, first.id, 'Yes.')).status, 303, 'the same answer again is the stored one');
    const next = await currentTurn(token);
    assert.equal(next.text, 'Tell us about a hard bug.');
    const turns = await transcript(interview.id);
    assert.equal(turns.filter((t) => t.kind === 'answer').length, 1);
    assert.equal(turns.find((t) => t.kind === 'answer')?.followUpSkipped, 'timeout');
  });

  it('an interview in progress before the conversation existed continues from its first question', async () => {
    const { interview, token } = await started();
    await db.query(`delete from recruiting.interview_turns where interview_id = $1`, [interview.id]);
    const turn = await currentTurn(token);
    assert.equal(turn.text, 'Why this role?');
    assert.equal((await submitInvite(token, [FULL, FULL])).status, 303);
    assert.equal((await call('GET', `/api/v1/interviews/${interview.id}`, { key: org.key })).body.data.status, 'completed');
  });

  it('integrity signals are stored on the answer turn with a consent to the current notice, never with an older one', async () => {
    const signals = { paste: [{ at: new Date().toISOString(), characters: 120 }], focusLost: { count: 2, seconds: 14 }, typingSeconds: 33 };
    const { interview, token } = await started();
    const turn = await currentTurn(token);
    await answerTurn(token, turn.id, FULL, [['signals', JSON.stringify(signals)]]);
    const stored = (await transcript(interview.id)).find((t) => t.kind === 'answer');
    assert.deepEqual(stored?.signals, signals);

    const old = await started();
    await db.query(`update recruiting.interviews set consent_notice_version = 'ai-notice-2026-11' where id = $1`, [old.interview.id]);
    const oldTurn = await currentTurn(old.token);
    assert.match((await openInvite(old.token)).html, /data-signals="off"/);
    await answerTurn(old.token, oldTurn.id, FULL, [['signals', JSON.stringify(signals)]]);
    assert.equal((await transcript(old.interview.id)).find((t) => t.kind === 'answer')?.signals, undefined, 'an old consent collects none');

    // Malformed signals are dropped; the answer is kept.
    const bad = await started();
    const badTurn = await currentTurn(bad.token);
    assert.equal((await answerTurn(bad.token, badTurn.id, FULL, [['signals', '{"paste": "lots"']])).status, 303);
    const kept = (await transcript(bad.interview.id)).find((t) => t.kind === 'answer');
    assert.equal(kept?.text, FULL);
    assert.equal(kept?.signals, undefined);
  });

  it('erasing the candidate removes the turns and their signals', async () => {
    const { interview, token } = await started();
    const turn = await currentTurn(token);
    await answerTurn(token, turn.id, FULL, [['signals', JSON.stringify({ typingSeconds: 5 })]]);
    assert.ok((await db.query(`select 1 from recruiting.interview_turns where interview_id = $1 and signals is not null`, [interview.id])).rowCount === 1);
    const erase = await call('DELETE', `/api/v1/candidates/${interview.candidate.id}`, { key: org.key });
    assert.equal(erase.status, 202, erase.text);
    const left = await eventually(
      async () => Number((await db.query(`select count(*) from recruiting.interview_turns where interview_id = $1`, [interview.id])).rows[0].count),
      (n) => n === 0,
    );
    assert.equal(left, 0);
  });
});

describe('an interview in German', () => {
  it('shows the German texts and notice, and asks the offline follow-up in German', async () => {
    const org = await newOrganizationWithKey(['read', 'write']);
    const positionId = (await newPosition(org.key, { interviewQuestions: ['Warum diese Stelle?'] })).id;
    const interview = await schedule(org.key, positionId, { language: 'de', accommodations: { extraTimePercent: 50 } });
    const token = tokenOf(interview.inviteUrl);
    const welcome = await openInvite(token);
    assert.match(welcome.html, /<html lang="de">/);
    assert.match(welcome.html, /Bevor Sie beginnen: wie KI eingesetzt wird/);
    assert.match(welcome.html, /Integritätssignale/, 'the notice mentions the signals');
    assert.match(welcome.html, /etwa 45 Minuten/, 'duration 30 plus 50 % extra time');
    assert.match(welcome.html, /Ich stimme zu und beginne/);
    assert.equal((await startInvite(token)).status, 303);
    const turn = await openInvite(token);
    assert.match(turn.html, /Frage 1 von 1/);
    assert.match(turn.html, /Ihre Antwort/);
    await answerTurn(token, turn.turn!.id, 'Ja.');
    const followUp = await openInvite(token);
    assert.equal(followUp.turn?.kind, 'follow_up');
    assert.match(followUp.turn?.text ?? '', /konkretes Beispiel/);
    // The pages without a turn on them speak German too: a form the page could not read (the
    // interview's language), and an unknown link (the browser's).
    const unreadable = await fetch(`${testEnv().gatewayUrl}/i/${token}/answer`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from('answer=a%FFb'), redirect: 'manual',
    });
    assert.equal(unreadable.status, 400);
    assert.match(await unreadable.text(), /<html lang="de">[\s\S]*Das Formular konnte nicht gelesen werden/);
    const unknown = await fetch(`${testEnv().gatewayUrl}/i/${'x'.repeat(43)}`, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } });
    assert.equal(unknown.status, 404);
    assert.match(await unknown.text(), /Dieser Einladungslink ist nicht gültig/);
  });

  it('a position without questions of its own asks the default questions in German, with their ids', async () => {
    const org = await newOrganizationWithKey(['read', 'write']);
    const created = await call('POST', '/api/v1/positions', { key: org.key, body: { title: 'Generalist' } });
    assert.equal(created.status, 201, created.text);
    const positionId = created.body.data.id as string;
    const german = await schedule(org.key, positionId, { language: 'de' });
    await startInvite(tokenOf(german.inviteUrl));
    const turn = await openInvite(tokenOf(german.inviteUrl));
    assert.equal(turn.turn?.text, 'Erzählen Sie uns von sich und davon, was Sie an dieser Rolle reizt.');
    const english = await schedule(org.key, positionId);
    await startInvite(tokenOf(english.inviteUrl));
    assert.equal((await openInvite(tokenOf(english.inviteUrl))).turn?.text, 'Tell us about yourself and what draws you to this role.');
  });
});
