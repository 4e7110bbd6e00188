import { startTestServer } from './testing.js';

/** A scripted reply of the test server: an HTTP error, or a chat completion whose content is given. */
export type ScriptedReply = { status: number; error?: string } | { content: string };

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

/**
 * A local OpenAI-compatible server for tests: POST /v1/chat/completions answers from a script
 * (one reply per request, in order) and otherwise with `fallback(request)`. Real HTTP, so the
 * code under test runs the real openai SDK. `hold(marker)` keeps the next such request in flight
 * until the test releases it (a caller killed meanwhile never gets its reply).
 */
export async function startOpenAiTestServer(fallback: (req: RecordedRequest) => string) {
  const requests: RecordedRequest[] = [];
  const scripts = new Map<string, ScriptedReply[]>();
  const holds = new Map<string, { arrived: (r: RecordedRequest) => void; released: Promise<void> }>();
  let defaultScript: ScriptedReply[] = [];
  const server = await startTestServer(async (req, raw) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return { status: 404, body: JSON.stringify({ error: { message: 'not found' } }) };
    const recorded: RecordedRequest = { path: req.url, authorization: req.headers.authorization, body: JSON.parse(raw) as RecordedRequest['body'] };
    requests.push(recorded);
    // A test can script replies for requests whose prompt contains a marker of its own.
    const prompt = JSON.stringify(recorded.body.messages ?? []);
    const marker = [...scripts.keys()].find((m) => prompt.includes(m));
    const queue = marker ? scripts.get(marker)! : defaultScript;
    const reply = queue.shift() ?? { content: fallback(recorded) };
    const held = [...holds.keys()].find((m) => prompt.includes(m));
    if (held) {
      const hold = holds.get(held)!;
      holds.delete(held);
      hold.arrived(recorded);
      await hold.released;
    }
    if ('status' in reply) {
      return { status: reply.status, body: JSON.stringify({ error: { message: reply.error ?? `scripted ${reply.status}`, type: 'test', code: null } }) };
    }
    return {
      status: 200,
      body: JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: recorded.body.model ?? 'test-model',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply.content } }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    };
  });
  return {
    baseUrl: `${server.url}/v1`,
    requests,
    /** Replies for requests whose messages contain `marker` (or every request when marker is '*'). */
    script(marker: string, replies: ScriptedReply[]) {
      if (marker === '*') defaultScript = replies;
      else scripts.set(marker, replies);
    },
    /** Holds the next request whose messages contain `marker` until `release()`. */
    hold(marker: string): HeldRequest {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const received = new Promise<RecordedRequest>((arrived) => holds.set(marker, { arrived, released }));
      return { received, release };
    },
    requestsWith: (marker: string) => requests.filter((r) => JSON.stringify(r.body.messages ?? []).includes(marker)),
    close: server.close,
  };
}
