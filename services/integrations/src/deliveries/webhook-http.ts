import { Pool } from 'undici';
import { AppError, resolveWebhookTarget, type ResolvedTarget } from '@hireloop/platform';

/** At most this much of a receiver's answer is read and kept (PRODUCT.md §8). */
export const EXCERPT_BYTES = 1024;
/** A pool nobody used for this long is closed. */
const IDLE_POOL_MS = 5 * 60_000;

export interface HttpResult {
  status: number | null;
  excerpt: string | null;
  retryAfter: string | null;
  error: string | null;
  latencyMs: number;
}

/**
 * A receiver's text as Postgres can keep it: U+0000 (which no text column takes) becomes U+FFFD,
 * as bytes that are not UTF-8 already do. An excerpt that could not be stored left the attempt
 * unrecorded, and its delivery was sent again at every lease's end.
 */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}

/** A client-facing reason for a failed connection: never a library's message or a stack. */
function describe(err: unknown, timeoutMs: number): string {
  if (err instanceof AppError) return `refused: ${err.message}`;
  const e = err as { name?: string; code?: string; cause?: { code?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no response within ${timeoutMs / 1000} s`;
  const code = e.code ?? e.cause?.code;
  switch (code) {
    case 'ECONNREFUSED': return 'connection refused';
    case 'ECONNRESET': case 'UND_ERR_SOCKET': return 'connection reset by the receiver';
    case 'EHOSTUNREACH': case 'ENETUNREACH': return 'host unreachable';
    case undefined: return 'connection failed';
    default: return code.startsWith('ERR_TLS') || code.includes('CERT') ? 'TLS handshake failed' : `connection failed (${code})`;
  }
}

/**
 * The keep-alive HTTP client of webhook deliveries: one undici Pool per (endpoint, origin, address
 * that passed the SSRF check), which connects only to that address (pinned: DNS cannot be re-bound
 * between the check and the connection). undici rather than node:http: keep-alive pools with a
 * connection cap per endpoint, and a whole-request deadline through an AbortSignal.
 *
 * Per endpoint, not per origin: endpoints of many organizations often share a host (a SaaS
 * receiver, one server with a path per customer), and a pool per origin would let one endpoint's
 * hanging requests take every connection to that host, and cap the whole host at one endpoint's
 * concurrency.
 */
export class WebhookHttp {
  private readonly pools = new Map<string, { pool: Pool; usedAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: { allowLoopback: boolean; timeoutMs: number; connectionsPerEndpoint: number }) {
    this.sweeper = setInterval(() => this.closeIdle(), 60_000);
    this.sweeper.unref();
  }

  private poolFor(endpoint: string, target: ResolvedTarget): Pool {
    const key = `${endpoint}|${target.url.origin}|${target.address}`;
    const found = this.pools.get(key);
    if (found) {
      found.usedAt = Date.now();
      return found.pool;
    }
    const pool = new Pool(target.url.origin, {
      connections: this.options.connectionsPerEndpoint,
      keepAliveTimeout: 30_000,
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
      connect: {
        timeout: this.options.timeoutMs,
        lookup: (_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
          if (options.all) cb(null, [{ address: target.address, family: target.family }]);
          else cb(null, target.address, target.family);
        },
      } as never,
    });
    this.pools.set(key, { pool, usedAt: Date.now() });
    return pool;
  }

  private closeIdle(): void {
    const cutoff = Date.now() - IDLE_POOL_MS;
    for (const [key, entry] of this.pools) {
      if (entry.usedAt < cutoff) {
        this.pools.delete(key);
        void entry.pool.close().catch(() => undefined);
      }
    }
  }

  /**
   * POSTs `body` to `url` within the total deadline, over the connections of `endpoint` (the
   * webhook's id); never throws (a failure is in the result).
   */
  async post(endpoint: string, url: string, headers: Record<string, string>, body: string): Promise<HttpResult> {
    const started = performance.now();
    const done = (r: Omit<HttpResult, 'latencyMs'>): HttpResult => ({ ...r, latencyMs: Math.round(performance.now() - started) });
    try {
      const target = await resolveWebhookTarget(url, this.options.allowLoopback);
      const res = await this.poolFor(endpoint, target).request({
        path: `${target.url.pathname}${target.url.search}`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'Hireloop-Webhooks/1' },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      // The status decides (PRODUCT.md §8: the deadline is for connect, send and the response's
      // headers). The excerpt is what of the body arrives within what is left of the deadline:
      // a 2xx whose body is slow, or cut off, is still a success, with the part that came.
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= EXCERPT_BYTES) break; // the rest is not read; the connection is dropped
        }
      } catch {
        res.body.destroy();
      }
      const retryAfter = res.headers['retry-after'];
      return done({
        status: res.statusCode,
        excerpt: storableText(Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8')),
        retryAfter: (Array.isArray(retryAfter) ? retryAfter[0] : retryAfter) ?? null,
        error: null,
      });
    } catch (err) {
      return done({ status: null, excerpt: null, retryAfter: null, error: describe(err, this.options.timeoutMs) });
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.pools.values()].map((p) => p.pool.close().catch(() => undefined)));
    this.pools.clear();
  }
}

/** Seconds from a Retry-After header (delta seconds or an HTTP date), or null. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
