import { Agent, request, type IncomingMessage } from 'node:http';
import { Agent as TlsAgent, request as tlsRequest } from 'node:https';

/**
 * The transport of service-to-service calls (service-client.ts's tRPC clients, the outbox
 * publisher's sink) and of the openai SDK (bufferedFetch): Node's own HTTP client over one
 * keep-alive agent per process and protocol, in place of the global `fetch`.
 *
 * Why not `fetch`: a profile of `POST /api/v1/positions` under load (docs/benchmarks.md,
 * bench:webhooks) found half of the gateway's CPU in Node 20's fetch machinery (WHATWG streams
 * for each body, an AbortController and a DOMException per request, Headers objects), for calls
 * whose body is one small JSON string. tRPC's link reads nothing of the answer but `json()`.
 * Why not undici's `request`, as fast: importing undici installs its agent as the global
 * dispatcher, under Node's built-in fetch of another major version, which then refuses some
 * headers it sent before; node:http changes nothing global.
 *
 * Failures behave as with fetch: a connection refused or reset rejects (the client then reports
 * the service unavailable), an abort signal aborts, and a body that is not JSON rejects `json()`.
 * The body is read whole before the promise resolves (these answers are small JSON documents), so
 * a caller that ignores it never pins a connection.
 */
// Idle connections are closed after a minute, before the services' keep-alive timeout (65 s).
const serviceAgents = { http: new Agent({ keepAlive: true, timeout: 60_000 }), https: new TlsAgent({ keepAlive: true, timeout: 60_000 }) };
/**
 * bufferedFetch's connections to servers that are not ours (the AI provider): idle ones closed
 * after 4 s, as Node's fetch does, since such a server may close them sooner than ours do and
 * does not always say when (`Keep-Alive: timeout`).
 */
const outsideAgents = { http: new Agent({ keepAlive: true, timeout: 4_000 }), https: new TlsAgent({ keepAlive: true, timeout: 4_000 }) };

type Init = {
  method?: string;
  headers?: unknown;
  body?: unknown;
  signal?: AbortSignal | null;
  /**
   * Gives up when the connection stays silent this long (no byte of the answer): the request is
   * destroyed and rejects with code ETIMEDOUT. Our services send an answer whole, so for them it is
   * the answer's deadline. A socket timer, not an AbortController (whose cost per call the profile
   * above found).
   */
  silenceTimeoutMs?: number;
};

/**
 * The protocol, host and port of each service's base URL, read once: given a URL string, Node's
 * request() parses all of it on every call (~1 % of the gateway's CPU per request). The few
 * origins a process calls are kept; the path is the rest of the string as tRPC built it.
 */
const origins = new Map<string, { protocol: string; hostname: string; port: string }>();

function requestTarget(url: string) {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  const origin = slash < 0 ? url : url.slice(0, slash);
  let parts = origins.get(origin);
  if (!parts) {
    const { protocol, hostname, port } = new URL(origin);
    parts = { protocol, hostname: hostname.startsWith('[') ? hostname.slice(1, -1) : hostname, port };
    if (origins.size > 100) origins.clear();
    origins.set(origin, parts);
  }
  return { ...parts, path: slash < 0 ? '/' : url.slice(slash) };
}
export interface ServiceResponse {
  ok: boolean;
  status: number;
  json: () => Promise<unknown>;
  text: () => Promise<string>;
}

/** A request's headers as a plain record, whichever form the caller gave them in. */
function headerRecord(headers: unknown): Record<string, string> {
  if (headers === undefined || headers === null) return {};
  if (headers instanceof Headers) {
    const record: Record<string, string> = {};
    headers.forEach((value, name) => (record[name] = value));
    return record;
  }
  if (Array.isArray(headers)) return Object.fromEntries(headers as [string, string][]);
  return { ...(headers as Record<string, string>) };
}

/**
 * One request whose answer is read whole: its response head and its body. With `retryStale`, a
 * request that met a kept-alive connection the server had just closed (reset before any answer,
 * on a reused socket) is sent once more on a new one, as Node's docs on `reusedSocket` advise:
 * for callers whose request may be sent twice (the AI provider's; not the services' mutations).
 */
function bufferedRequest(url: string | URL | Request, init: Init, agents: { http: Agent; https: TlsAgent }, retryStale = false): Promise<{ res: IncomingMessage; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const body = typeof init.body === 'string' ? Buffer.from(init.body) : null;
    const headers = { ...headerRecord(init.headers), ...(body ? { 'content-length': String(body.length) } : {}) };
    const target = requestTarget(url instanceof Request ? url.url : String(url));
    const tls = target.protocol === 'https:';
    let answered = false;
    const req = (tls ? tlsRequest : request)({ ...target, method: init.method ?? 'GET', headers, agent: tls ? agents.https : agents.http, signal: init.signal ?? undefined }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('close', () => {
        if (!res.complete) reject(new Error('the connection closed before the whole answer arrived'));
      });
      res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }));
    });
    if (init.silenceTimeoutMs) {
      const ms = init.silenceTimeoutMs;
      req.setTimeout(ms, () => req.destroy(Object.assign(new Error(`no answer within ${ms} ms`), { code: 'ETIMEDOUT' })));
    }
    req.on('error', (err: NodeJS.ErrnoException) => {
      const stale = retryStale && req.reusedSocket && !answered && (err.code === 'ECONNRESET' || err.code === 'EPIPE') && !init.signal?.aborted;
      if (stale) bufferedRequest(url, init, agents).then(resolve, reject);
      else reject(err);
    });
    req.end(body ?? undefined);
  });
}

export async function serviceFetch(url: string | URL | Request, init: Init = {}): Promise<ServiceResponse> {
  const { res, body } = await bufferedRequest(url, init, serviceAgents);
  const text = body.toString('utf8');
  const status = res.statusCode ?? 0;
  return { ok: status >= 200 && status < 300, status, json: async () => JSON.parse(text) as unknown, text: async () => text };
}

/** Statuses whose answer has no body: a Response refuses one. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * The global `fetch`'s shape over the same transport, for a client that wants a `Response` (the
 * openai SDK's `fetch` option): a call costs about a third less CPU than Node's fetch (measured
 * through the SDK: docs/benchmarks.md, issue 22). For string bodies and answers read whole, as
 * JSON APIs send them: not for streamed answers. Any other body goes to the global fetch, and so
 * does a request answered with a redirect (sent again there, which follows it as fetch does,
 * without the credentials on another origin). Idle connections close after 4 s.
 */
export async function bufferedFetch(url: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') return fetch(url, init);
  const { res, body } = await bufferedRequest(url, init, outsideAgents, true);
  const status = res.statusCode ?? 0;
  if (REDIRECT_STATUSES.has(status) && res.headers.location) return fetch(url, init);
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
  return new Response(NULL_BODY_STATUSES.has(status) ? null : (body as Uint8Array<ArrayBuffer>), { status, statusText: res.statusMessage ?? '', headers });
}
