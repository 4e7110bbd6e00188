import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer } from './testing.js';

/**
 * A scripted reply of the test server:
 * - `{status, error?}`: an HTTP error from the provider;
 * - `{content}`: a chat completion whose message content is given (`json` is stringified);
 * - `{hang: true}`: no reply until the server closes (a provider that never answers);
 * and, on any of them, `delayMs` before the reply is sent.
 */
export type ScriptedReply = ({ status: number; error?: string } | { content: string } | { json: unknown } | { hang: true }) & { delayMs?: number };
/** A reply, or (in-process only) a reply made from the request, e.g. quoting its transcript. */
export type Scripted = ScriptedReply | ((request: RecordedRequest) => ScriptedReply);

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: { model?: string; messages?: { role: string; content: string }[]; response_format?: unknown };
}

/** A request held by `hold(marker)`: `received` once it has arrived, and the release of its reply. */
export interface HeldRequest {
  received: Promise<RecordedRequest>;
  release: () => void;
}

/** A quote of a scripted evaluation: any text, true (in that turn) or fabricated. */
export interface ScriptedQuote {
  turnId: string;
  quote: string;
}

/** What the rubric evaluation asks of a model: per competency a score, a rationale and quotes. */
export function evaluationReply(competencies: { key: string; score: number | null; rationale?: string; quotes?: ScriptedQuote[] }[]): ScriptedReply {
  return { json: { competencies: competencies.map((c) => ({ rationale: `Scripted rationale for ${c.key}.`, quotes: [], ...c })) } };
}

/** The transcript turns (one JSON object per line) that a rubric evaluation prompt carries. */
export function turnsIn(request: RecordedRequest): { turnId: string; role: string; kind: string; questionId: string; text: string }[] {
  return promptOf(request).user.split('\n').filter((line) => line.startsWith('{"turnId"')).map((line) => JSON.parse(line) as ReturnType<typeof turnsIn>[number]);
}

/** The system and user messages of a recorded request. */
export function promptOf(request: RecordedRequest): { system: string; user: string } {
  const messages = request.body.messages ?? [];
  const of = (role: string) => messages.filter((m) => m.role === role).map((m) => m.content).join('\n');
  return { system: of('system'), user: of('user') };
}

function completion(n: number, model: string | undefined, content: string) {
  return {
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: model ?? 'test-model',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

/**
 * A local OpenAI-compatible server for tests and benchmarks: POST /v1/chat/completions answers
 * from a script and otherwise with `fallback(request)`. Real HTTP, so the code under test runs
 * the real openai SDK.
 * - Scripts are keyed by a marker of the test's own that appears in the prompt, so tests sharing
 *   one server never take each other's replies; '*' scripts every request without a marker.
 * - Every request is captured (`requests`, `requestsWith(marker)`, `promptOf`).
 * - `latency(ms)` delays every reply; a reply's `delayMs` delays that one.
 * - `hold(marker)` keeps the next such request in flight until the test releases it.
 * - The same controls over HTTP, for a process that did not start the server:
 *   POST /_control/script {marker, replies}, POST /_control/latency {ms},
 *   GET /_control/requests?marker=… (the captured requests).
 */
export async function startOpenAiTestServer(fallback: (req: RecordedRequest) => string) {
  const requests: RecordedRequest[] = [];
  const scripts = new Map<string, Scripted[]>();
  const holds = new Map<string, { arrived: (r: RecordedRequest) => void; released: Promise<void> }>();
  let defaultScript: Scripted[] = [];
  let latencyMs = 0;
  let closing: () => void = () => {};
  const closed = new Promise<void>((resolve) => (closing = resolve));
  const promptText = (r: RecordedRequest) => JSON.stringify(r.body.messages ?? []);
  const script = (marker: string, replies: Scripted[]) => {
    if (marker === '*') defaultScript = [...replies];
    else scripts.set(marker, [...replies]);
  };

  const server = await startTestServer(async (req, raw) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/_control/')) return control(req.method ?? 'GET', url, raw);
    if (req.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) return { status: 404, body: JSON.stringify({ error: { message: 'not found' } }) };
    const recorded: RecordedRequest = { path: url.pathname, authorization: req.headers.authorization, body: JSON.parse(raw) as RecordedRequest['body'] };
    requests.push(recorded);
    const prompt = promptText(recorded);
    // A held request takes its reply once released: the test may script it meanwhile.
    const held = [...holds.keys()].find((m) => prompt.includes(m));
    if (held) {
      const hold = holds.get(held)!;
      holds.delete(held);
      hold.arrived(recorded);
      await hold.released;
    }
    const marker = [...scripts.keys()].find((m) => prompt.includes(m));
    const queue = marker ? scripts.get(marker)! : defaultScript;
    const next = queue.shift();
    const reply: ScriptedReply = next === undefined ? { content: fallback(recorded) } : typeof next === 'function' ? next(recorded) : next;
    const delay = reply.delayMs ?? latencyMs;
    if (delay > 0) await Promise.race([sleep(delay), closed]);
    if ('hang' in reply) {
      await closed;
      return { status: 503, body: JSON.stringify({ error: { message: 'the test server closed' } }) };
    }
    if ('status' in reply) {
      return { status: reply.status, body: JSON.stringify({ error: { message: reply.error ?? `scripted ${reply.status}`, type: 'test', code: null } }) };
    }
    const content = 'json' in reply ? JSON.stringify(reply.json) : reply.content;
    return { status: 200, body: JSON.stringify(completion(requests.length, recorded.body.model, content)) };
  });

  function control(method: string, url: URL, raw: string) {
    const ok = (body: unknown) => ({ status: 200, body: JSON.stringify(body) });
    if (method === 'POST' && url.pathname === '/_control/script') {
      const { marker, replies } = JSON.parse(raw) as { marker: string; replies: ScriptedReply[] };
      script(marker, replies);
      return ok({ scripted: replies.length });
    }
    if (method === 'POST' && url.pathname === '/_control/latency') {
      latencyMs = (JSON.parse(raw) as { ms: number }).ms;
      return ok({ latencyMs });
    }
    if (method === 'GET' && url.pathname === '/_control/requests') {
      const marker = url.searchParams.get('marker');
      return ok({ requests: marker ? requests.filter((r) => promptText(r).includes(marker)) : requests });
    }
    return { status: 404, body: JSON.stringify({ error: { message: 'unknown control' } }) };
  }

  return {
    baseUrl: `${server.url}/v1`,
    /** The root of the control endpoints (`${controlUrl}/_control/…`). */
    controlUrl: server.url,
    requests,
    /** Replies for requests whose messages contain `marker` (or every request without a scripted marker when marker is '*'). */
    script,
    /** Every reply is sent `ms` after its request arrived (a reply's own `delayMs` wins). */
    latency(ms: number) {
      latencyMs = ms;
    },
    /** Holds the next request whose messages contain `marker` until `release()`. */
    hold(marker: string): HeldRequest {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const received = new Promise<RecordedRequest>((arrived) => holds.set(marker, { arrived, released }));
      return { received, release };
    },
    requestsWith: (marker: string) => requests.filter((r) => promptText(r).includes(marker)),
    /** The prompts (system and user text) of the requests whose messages contain `marker`. */
    promptsWith: (marker: string) => requests.filter((r) => promptText(r).includes(marker)).map(promptOf),
    async close() {
      closing();
      server.server.closeAllConnections();
      await server.close();
    },
  };
}
