import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { call, startTestServer } from '@hireloop/devstack/testing';

export interface Received {
  at: number;
  /** The request's path (and query). */
  path: string;
  /** For a hanging request: true until its connection closes (the sender gave up, or the receiver closed). */
  open?: boolean;
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; createdAt: string; data: any };
}

/** One scripted answer: a status (and headers), or no answer at all until the receiver closes. */
export type Reply = { status: number; headers?: Record<string, string> } | { hang: true };

/**
 * A webhook receiver on loopback: records every request; answers from a script, then with
 * `otherwise` (200 unless given; a function of the request's path to answer per endpoint). A
 * hanging request is answered (503) when the receiver closes.
 */
export async function startReceiver(script: Reply[] = [], otherwise: Reply | ((path: string) => Reply) = { status: 200 }) {
  const received: Received[] = [];
  const hanging: Array<() => void> = [];
  let closing = false;
  const server = await startTestServer(async (req, body) => {
    const entry: Received = { at: Date.now(), path: req.url ?? '', headers: req.headers, body, event: JSON.parse(body) };
    received.push(entry);
    const reply = script.shift() ?? (typeof otherwise === 'function' ? otherwise(entry.path) : otherwise);
    if ('hang' in reply && !closing) {
      entry.open = true;
      req.socket.once('close', () => (entry.open = false));
      await new Promise<void>((resolve) => hanging.push(resolve));
      return { status: 503, body: '{"ok":false}' };
    }
    if ('hang' in reply) return { status: 503, body: '{"ok":false}' };
    return { status: reply.status, body: JSON.stringify({ ok: reply.status < 300 }), headers: reply.headers };
  });
  return {
    url: `${server.url}/hooks`,
    received,
    of: (type: string) => received.filter((r) => r.event.type === type),
    close: async () => {
      closing = true;
      for (const release of hanging.splice(0)) release();
      await server.close();
    },
  };
}

/** POST /webhooks, asserting the 201; the webhook's id and its signing secret. */
export async function registerWebhook(key: string, url: string, events: string[] = ['*']) {
  const res = await call('POST', '/api/v1/webhooks', { key, body: { url, events } });
  assert.equal(res.status, 201, res.text);
  return res.body.data as { id: string; secret: string };
}

/** Verifies a received delivery with the `standardwebhooks` package (throws if it does not verify); returns the event it carried. */
export function verifyDelivery(secret: string, r: Received) {
  const headers = { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) };
  return new StandardWebhook(secret).verify(r.body, headers) as { id: string; type: string };
}
