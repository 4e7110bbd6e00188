import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

/**
 * The loopback webhook receiver of the benchmarks (bench:webhooks, bench:soak): this file run as a
 * child process, so receiving never waits on the bench's event loop. It records every request,
 * stamped with Date.now(), and hands the list over IPC when asked. It answers 200 at once, except
 * on `fail-` paths (500 to the first request of each webhook-id there, 200 after), `hang-` paths
 * (no answer: the sender's deadline ends the request) and `slow-<ms>-` paths (500 to the first
 * request of each webhook-id, then 200 after holding each later request `ms` milliseconds).
 */

export interface Arrival {
  /** The request path: the benchmarks give each webhook a path of its own. */
  path: string;
  /** What the receiver answered: 200, 500, or 0 (it never answered). */
  answered: number;
  eventId: string;
  /** The Standard Webhooks `webhook-id` header: the same for every attempt of one delivery. */
  webhookId: string;
  type: string;
  /** `data.id` of the event (the resource's id). */
  dataId: string | null;
  at: number;
}

type ToReceiver = { ask: number; prefix: string };
type FromReceiver = { port: number } | { ask: number; arrivals: Arrival[] };

export interface Receiver {
  port: number;
  child: ChildProcess;
  /** Every request received so far whose path starts with `prefix`. */
  arrivals: (prefix: string) => Promise<Arrival[]>;
}

async function serveReceiver(): Promise<void> {
  const arrivals: Arrival[] = [];
  const failedOnce = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      const path = req.url ?? '';
      const webhookId = String(req.headers['webhook-id'] ?? '');
      const key = `${path} ${webhookId}`;
      let answered = 200;
      const slowMs = /\/slow-(\d+)-/.exec(path)?.[1];
      let holdMs = 0;
      if (path.includes('/hang-')) answered = 0;
      else if ((path.includes('/fail-') || slowMs) && !failedOnce.has(key)) {
        failedOnce.add(key);
        answered = 500;
      } else if (slowMs) holdMs = Number(slowMs);
      const answer = () => res.writeHead(answered, { 'content-type': 'application/json' }).end(answered === 200 ? '{"ok":true}' : '{"error":"bench"}');
      if (answered && holdMs) setTimeout(answer, holdMs);
      else if (answered) answer();
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string; data?: { id?: string } };
        arrivals.push({ path, answered, eventId: event.id, webhookId, type: event.type, dataId: event.data?.id ?? null, at });
      } catch {
        arrivals.push({ path, answered, eventId: '', webhookId, type: 'unparseable', dataId: null, at });
      }
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  process.on('message', (message: ToReceiver) => {
    process.send?.({ ask: message.ask, arrivals: arrivals.filter((a) => a.path.startsWith(message.prefix)) } satisfies FromReceiver);
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ port: (server.address() as { port: number }).port } satisfies FromReceiver);
}

/** Forks the receiver and waits until it listens on 127.0.0.1. */
export async function startReceiver(): Promise<Receiver> {
  const child = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, BENCH_WEBHOOK_RECEIVER: '1' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, (arrivals: Arrival[]) => void>();
  let asked = 0;
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the webhook receiver exited (${code}) before listening`)));
    child.on('message', (message: FromReceiver) => {
      if ('port' in message) resolve(message.port);
      else pending.get(message.ask)?.(message.arrivals);
    });
  });
  child.removeAllListeners('exit');
  return {
    port,
    child,
    arrivals: (prefix) =>
      new Promise((resolve) => {
        const ask = ++asked;
        pending.set(ask, (arrivals) => {
          pending.delete(ask);
          resolve(arrivals);
        });
        child.send({ ask, prefix } satisfies ToReceiver);
      }),
  };
}

if (process.env['BENCH_WEBHOOK_RECEIVER']) await serveReceiver();
