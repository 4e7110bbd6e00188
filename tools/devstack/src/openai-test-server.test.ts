import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluationReply, promptOf, startOpenAiTestServer, turnsIn } from './openai-test-server.js';

/** What the openai SDK sends: a chat completion request with a system and a user message. */
const ask = (baseUrl: string, user: string, signal?: AbortSignal) =>
  fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-x' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'system', content: 'rules' }, { role: 'user', content: user }] }),
    ...(signal ? { signal } : {}),
  });
const contentOf = async (res: Response) => ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;

describe('the OpenAI-compatible test server', () => {
  let ai: Awaited<ReturnType<typeof startOpenAiTestServer>>;
  before(async () => {
    ai = await startOpenAiTestServer(() => 'fallback');
  });
  after(() => ai.close());

  it('answers a request by the script of the marker in its prompt, in order, then with the fallback', async () => {
    ai.script('m-order', [{ content: 'one' }, { json: { two: 2 } }]);
    assert.equal(await contentOf(await ask(ai.baseUrl, 'a m-order b')), 'one');
    assert.equal(await contentOf(await ask(ai.baseUrl, 'a m-order b')), '{"two":2}');
    assert.equal(await contentOf(await ask(ai.baseUrl, 'a m-order b')), 'fallback');
    assert.equal(await contentOf(await ask(ai.baseUrl, 'no marker')), 'fallback');
  });

  it('scripts provider errors, and replies built from the request (a scripted evaluation quoting its transcript)', async () => {
    ai.script('m-error', [{ status: 429, error: 'slow down' }]);
    const refused = await ask(ai.baseUrl, 'm-error');
    assert.equal(refused.status, 429);
    ai.script('m-quote', [(request) => evaluationReply([{ key: 'communication', score: 4, quotes: [{ turnId: turnsIn(request)[0]!.turnId, quote: 'fabricated' }] }])]);
    const reply = JSON.parse(await contentOf(await ask(ai.baseUrl, `m-quote\n{"turnId":"turn_aaaaaaaaaa1","role":"candidate","kind":"answer","questionId":"q_x","text":"hi"}`)));
    assert.deepEqual(reply.competencies[0].quotes, [{ turnId: 'turn_aaaaaaaaaa1', quote: 'fabricated' }]);
  });

  it('delays a reply (latency) and never answers a hung request', async () => {
    ai.script('m-slow', [{ content: 'late', delayMs: 50 }]);
    assert.equal(await contentOf(await ask(ai.baseUrl, 'm-slow')), 'late');
    ai.script('m-hang', [{ hang: true }]);
    await assert.rejects(ask(ai.baseUrl, 'm-hang', AbortSignal.timeout(300)), /abort|timeout/i);
  });

  it('holds a request until released, and captures every prompt', async () => {
    const held = ai.hold('m-held');
    const pending = ask(ai.baseUrl, 'm-held please');
    const received = await held.received;
    assert.equal(promptOf(received).user, 'm-held please');
    held.release();
    assert.equal(await contentOf(await pending), 'fallback');
    assert.deepEqual(ai.promptsWith('m-held'), [{ system: 'rules', user: 'm-held please' }]);
  });

  it('takes scripts and latency over its control endpoint, and lists the captured requests there', async () => {
    const script = await fetch(`${ai.controlUrl}/_control/script`, { method: 'POST', body: JSON.stringify({ marker: 'm-remote', replies: [{ content: 'remote' }] }) });
    assert.equal(script.status, 200);
    assert.equal(await contentOf(await ask(ai.baseUrl, 'm-remote')), 'remote');
    const listed = (await (await fetch(`${ai.controlUrl}/_control/requests?marker=m-remote`)).json()) as { requests: unknown[] };
    assert.equal(listed.requests.length, 1);
    assert.equal((await fetch(`${ai.controlUrl}/_control/latency`, { method: 'POST', body: JSON.stringify({ ms: 0 }) })).status, 200);
  });
});
