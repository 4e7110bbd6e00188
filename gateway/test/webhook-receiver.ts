import type { IncomingHttpHeaders } from 'node:http';
import { startTestServer } from '@hireloop/devstack/testing';

export interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; createdAt: string; data: any };
}

/** One scripted answer: a status (and headers), or no answer at all until the receiver closes. */
export type Reply = { status: number; headers?: Record<string, string> } | { hang: true };

/**
 * A webhook receiver on loopback: records every request; answers from a script, then with
 * `otherwise` (200 unless given). A hanging request is answered (503) when the receiver closes.
 */
export async function startReceiver(script: Reply[] = [], otherwise: Reply = { status: 200 }) {
  const received: Received[] = [];
  const hanging: Array<() => void> = [];
  let closing = false;
  const server = await startTestServer(async (req, body) => {
    received.push({ at: Date.now(), headers: req.headers, body, event: JSON.parse(body) });
    const reply = script.shift() ?? otherwise;
    if ('hang' in reply && !closing) {
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
