import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ApplicationFailure } from '@temporalio/activity';
import { Webhook } from 'standardwebhooks';
import { resolveWebhookTarget, AppError } from '@hireloop/platform';
import type { createIntegrationsClient } from '@hireloop/integrations/client';

export interface DeliveryDeps {
  integrations: ReturnType<typeof createIntegrationsClient>;
  allowLoopback: boolean;
  timeoutMs: number;
}

export interface DeliveryArgs {
  organizationId: string;
  webhookId: string;
  event: { id: string; type: string; createdAt: string; data: unknown };
  attempt: number;
}

const EXCERPT_BYTES = 1024;

interface HttpResult {
  status: number | null;
  excerpt: string | null;
  retryAfter: string | null;
  error: string | null;
}

/** One POST to the address that passed the SSRF check (pinned: no second DNS look-up). */
function post(target: Awaited<ReturnType<typeof resolveWebhookTarget>>, headers: Record<string, string>, body: string, timeoutMs: number): Promise<HttpResult> {
  return new Promise((resolve) => {
    const { url } = target;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Hireloop-Webhooks/1' },
        lookup: (_host, options, cb) => {
          // Node may ask for all addresses; answer in the form it asked for.
          if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
          else cb(null, target.address, target.family);
        },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? null, excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'), retryAfter: (res.headers['retry-after'] as string | undefined) ?? null, error: null }),
        );
        res.on('error', (err) => resolve({ status: res.statusCode ?? null, excerpt: null, retryAfter: null, error: err.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no response within ${timeoutMs / 1000} s`)));
    req.on('error', (err) => resolve({ status: null, excerpt: null, retryAfter: null, error: err.message }));
    req.end(body);
  });
}

/** Seconds from a Retry-After header (delta seconds or an HTTP date), or null. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Webhook delivery attempts. Each attempt signs the event with the Standard Webhooks library,
 * POSTs it with a timeout to the SSRF-checked, pinned address, and logs the attempt. The outcome
 * a workflow acts on is thrown as a typed, non-retryable failure: `endpoint_gone`,
 * `endpoint_unavailable` (disabled or deleted), `delivery_failed` (with Retry-After seconds).
 */
export function createDeliveryActivities({ integrations, allowLoopback, timeoutMs }: DeliveryDeps) {
  return {
    async attemptDelivery(args: DeliveryArgs): Promise<{ statusCode: number; latencyMs: number }> {
      const api = integrations.forOrganization(args.organizationId);
      const target = await api.deliveries.target.query({ webhookId: args.webhookId });
      if (target.state !== 'enabled') throw ApplicationFailure.nonRetryable(`The webhook is ${target.state}.`, 'endpoint_unavailable');

      const body = JSON.stringify(args.event);
      const started = Date.now();
      let result: HttpResult;
      try {
        const resolved = await resolveWebhookTarget(target.url, allowLoopback);
        const now = new Date();
        const signature = new Webhook(target.secret).sign(args.event.id, now, body);
        const headers = { 'webhook-id': args.event.id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signature };
        result = await post(resolved, headers, body, timeoutMs);
      } catch (err) {
        result = { status: null, excerpt: null, retryAfter: null, error: err instanceof AppError ? `refused: ${err.message}` : (err as Error).message };
      }
      const latencyMs = Date.now() - started;
      const { disabled } = await api.deliveries.record.mutate({
        webhookId: args.webhookId,
        eventId: args.event.id,
        eventType: args.event.type,
        attempt: args.attempt,
        statusCode: result.status,
        latencyMs,
        responseExcerpt: result.excerpt,
        error: result.error,
      });
      if (result.status !== null && result.status >= 200 && result.status < 300) return { statusCode: result.status, latencyMs };
      if (result.status === 410) throw ApplicationFailure.nonRetryable('The endpoint answered 410 Gone; it is now disabled.', 'endpoint_gone');
      if (disabled) throw ApplicationFailure.nonRetryable('The endpoint has been disabled.', 'endpoint_unavailable');
      const honour = result.status === 429 || result.status === 503 ? retryAfterSeconds(result.retryAfter) : null;
      throw ApplicationFailure.create({
        message: `Delivery failed: ${result.status ?? result.error}`,
        type: 'delivery_failed',
        nonRetryable: true,
        details: [{ retryAfterSeconds: honour }],
      });
    },
  };
}
export type DeliveryActivities = ReturnType<typeof createDeliveryActivities>;
