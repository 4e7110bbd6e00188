import type { IncomingHttpHeaders } from 'node:http';
import { startTestServer } from '@hireloop/devstack/testing';

export interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; createdAt: string; data: any };
}

/** A webhook receiver on loopback: records every request; answers from a script, then 200. */
export async function startReceiver(script: { status: number; headers?: Record<string, string> }[] = []) {
  const received: Received[] = [];
  const server = await startTestServer((req, body) => {
    received.push({ at: Date.now(), headers: req.headers, body, event: JSON.parse(body) });
    const reply = script.shift() ?? { status: 200 };
    return { status: reply.status, body: JSON.stringify({ ok: reply.status < 300 }), headers: reply.headers };
  });
  return {
    url: `${server.url}/hooks`,
    received,
    of: (type: string) => received.filter((r) => r.event.type === type),
    close: server.close,
  };
}
