import type { IncomingMessage, ServerResponse } from 'node:http';
import { getErrorShape, getTRPCErrorFromUnknown, transformTRPCResponse, TRPCError, type AnyTRPCProcedure, type AnyTRPCRouter } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';

/**
 * The tRPC calls of a service, answered straight from Node's request and response, for the one
 * wire format our clients speak (service-client.ts: tRPC's `httpLink`, no batching, no
 * transformer): a query is `GET <base><path>?input=<JSON>`, a mutation `POST <base><path>` with
 * the JSON input as its body; the answer is `{result: {data}}` or `{error: <shape>}` with the
 * status tRPC gives the error.
 *
 * Why not tRPC's standalone adapter: it turns every Node request into a WHATWG `Request` (a body
 * stream, an AbortController, Headers) and every answer into a `Response` piped through a
 * `WritableStream`; a profile of recruiting during the interview bench put that machinery at
 * about a sixth of the service's CPU per call (docs/benchmarks.md). The procedure itself, its
 * input and output validation, the error formatter and the status of each error code are tRPC's
 * own (`callProcedure`'s steps, `getErrorShape`, `getHTTPStatusCodeFromError`): only the
 * transport is ours. A batch (`?batch=1`, the console's `httpBatchLink` through the gateway's
 * session proxy) or a streamed call (`trpc-accept`) goes to `fallback`, tRPC's own adapter;
 * subscriptions and other content types are refused, never guessed.
 */
export interface TrpcCallHandlerOptions<TContext> {
  router: AnyTRPCRouter;
  /** Where the procedure paths start, with its trailing slash: `/trpc/`. */
  basePath: string;
  createContext: (req: IncomingMessage) => Promise<TContext>;
  onError?: (opts: { error: TRPCError; path: string | undefined }) => void;
  /** What answers the calls this handler does not: batches and streamed calls. */
  fallback: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
}

type CallType = 'query' | 'mutation';
const TYPE_OF_METHOD: Record<string, CallType> = { GET: 'query', POST: 'mutation' };

export function createTrpcCallHandler<TContext>(options: TrpcCallHandlerOptions<TContext>) {
  const { router, basePath } = options;
  const config = router._def._config;
  const procedures = router._def.procedures as Record<string, AnyTRPCProcedure | undefined>;

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const params = query < 0 ? null : new URLSearchParams(url.slice(query + 1));
    if (params?.has('batch') || req.headers['trpc-accept'] !== undefined) return options.fallback(req, res);
    const path = safeDecode(url.slice(basePath.length, query < 0 ? undefined : query));
    const type = TYPE_OF_METHOD[req.method ?? ''];
    let ctx: TContext | undefined;
    let input: unknown;
    try {
      const procedure = path === undefined ? undefined : procedures[path];
      if (!procedure || path === undefined) throw new TRPCError({ code: 'NOT_FOUND', message: `No procedure found on path "${path ?? ''}"` });
      if (procedure._def.type !== type) {
        res.setHeader('allow', procedure._def.type === 'mutation' ? 'POST' : 'GET');
        throw new TRPCError({ code: 'METHOD_NOT_SUPPORTED', message: `Unsupported ${req.method ?? ''}-request to ${procedure._def.type} procedure at path "${path}"` });
      }
      input = type === 'query' ? queryInput(params) : await bodyInput(req);
      ctx = await options.createContext(req);
      const data: unknown = await procedure({ path, getRawInput: async () => input, ctx, type, signal: undefined, batchIndex: 0 });
      send(res, 200, transformTRPCResponse(config, { result: { data } }));
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      options.onError?.({ error, path });
      const shape = getErrorShape({ config, ctx, error, input, path: path ?? '', type: type ?? 'unknown' });
      send(res, getHTTPStatusCodeFromError(error), transformTRPCResponse(config, { error: shape }));
    }
  };
}

function safeDecode(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new TRPCError({ code: 'PARSE_ERROR', cause: cause instanceof Error ? cause : undefined });
  }
}

function queryInput(params: URLSearchParams | null): unknown {
  const raw = params?.get('input') ?? null;
  return raw === null ? undefined : parseJson(raw);
}

async function bodyInput(req: IncomingMessage): Promise<unknown> {
  const type = req.headers['content-type'];
  if (type !== undefined && !/^application\/json\b/i.test(type)) throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: `Unsupported content-type "${type}"` });
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : parseJson(text);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), vary: 'trpc-accept, accept' });
  res.end(text);
}
