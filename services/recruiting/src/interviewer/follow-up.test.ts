import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { asFollowUpQuestion, decideFollowUp } from './follow-up.js';
import { OfflineFollowUpWriter } from './follow-up-writer.js';
import { followUpPrompt } from './follow-up-prompt.js';
import { sampleFollowUpRequest as request } from './follow-up.fixtures.js';

describe('a follow-up is one short question', () => {
  it('keeps one question on one line, ending with its only question mark', () => {
    assert.equal(asFollowUpQuestion('  What did you measure\nafterwards? '), 'What did you measure afterwards?');
    assert.equal(asFollowUpQuestion('What did you do? And why?'), null, 'two questions');
    assert.equal(asFollowUpQuestion('Tell me more.'), null, 'not a question');
    assert.equal(asFollowUpQuestion(`${'Why '.repeat(100)}?`), null, 'not short');
    assert.equal(asFollowUpQuestion(''), null);
  });
});

describe('the offline writer', () => {
  const offline = new OfflineFollowUpWriter();

  it('asks a follow-up on a thin answer ("Yes."), the same one every time', async () => {
    const first = await decideFollowUp(offline, request('Yes.'), 1000);
    assert.equal(first.kind, 'ask');
    assert.deepEqual(await decideFollowUp(offline, request('Yes.'), 1000), first, 'deterministic');
    assert.match(first.kind === 'ask' ? first.text : '', /concrete example/);
  });

  it('asks nothing after a full answer, and writes German follow-ups for a German interview', async () => {
    const full = 'We had a race between the cache refresh and a write, found it with tracing, and fixed it with a version check.';
    assert.deepEqual(await decideFollowUp(offline, request(full), 1000), { kind: 'none' });
    const german = await decideFollowUp(offline, request('Ja.', { language: 'de' }), 1000);
    assert.match(german.kind === 'ask' ? german.text : '', /konkretes Beispiel/);
  });

  it('a second follow-up on the same question asks something else', async () => {
    const second = await decideFollowUp(offline, request('Yes.', { followUpNumber: 2, maxFollowUps: 2 }), 1000);
    const first = await decideFollowUp(offline, request('Yes.'), 1000);
    assert.notDeepEqual(second, first);
  });
});

describe('the prompt', () => {
  it('carries the follow-up number and limit', () => {
    assert.match(followUpPrompt(request('Yes.', { followUpNumber: 2, maxFollowUps: 3 })).user, /follow-up 2 of at most 3/);
  });
});
