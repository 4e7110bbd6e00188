import OpenAI from 'openai';
import { z } from 'zod';
import { bufferedFetch } from '@hireloop/platform/service-fetch';
import { classifyAiError } from './ai-call-error.js';
import { storableReply } from './storable-reply.js';

export interface OpenAiSettings {
  apiKey: string;
  /** Any OpenAI-compatible server (OPENAI_BASE_URL); OpenAI itself when absent. */
  baseUrl?: string | undefined;
  /** The SDK's own per-request timeout; a caller's `signal` can end a call sooner. */
  timeoutMs: number;
}

/**
 * The openai SDK client of a process. The SDK's retries are off (its default is 2): the caller
 * owns retrying (Temporal in the worker; nobody on the interviewer's deadline). Its transport is
 * the services' keep-alive one (bufferedFetch), not Node's fetch: each call cost recruiting about
 * 0.5 ms of CPU more with fetch, once per follow-up on the candidate's turn. It reads each answer
 * whole: a streamed call (`stream: true`) would need a client of its own on Node's fetch.
 */
export function createOpenAiClient(settings: OpenAiSettings): OpenAI {
  return new OpenAI({ apiKey: settings.apiKey, baseURL: settings.baseUrl, maxRetries: 0, timeout: settings.timeoutMs, fetch: bufferedFetch });
}

export interface StructuredRequest<T extends z.ZodType> {
  model: string;
  schema: T;
  /** The response format's name (letters, digits, _ and -). */
  name: string;
  system: string;
  user: string;
  /** Ends the call when aborted (a deadline): it then fails with kind `timeout`. */
  signal?: AbortSignal | undefined;
}

/** A schema's JSON Schema, converted once per schema rather than once per call (every call sends it). */
const jsonSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  let converted = jsonSchemas.get(schema);
  if (!converted) jsonSchemas.set(schema, (converted = z.toJSONSchema(schema) as Record<string, unknown>));
  return converted;
}

/** A reply that is not JSON or does not match the schema: the caller decides whether to ask again. */
export type StructuredResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * One chat completion with a JSON-schema response format, parsed and validated with zod. A
 * failed call throws an AiCallError (classified); an unusable reply is `{ok: false}`.
 */
export async function structuredCompletion<T extends z.ZodType>(client: OpenAI, request: StructuredRequest<T>): Promise<StructuredResult<z.infer<T>>> {
  let content: string | null | undefined;
  try {
    const completion = await client.chat.completions.create(
      {
        model: request.model,
        messages: [
          { role: 'system', content: request.system },
          { role: 'user', content: request.user },
        ],
        response_format: { type: 'json_schema', json_schema: { name: request.name, schema: jsonSchemaOf(request.schema) } },
      },
      request.signal ? { signal: request.signal } : undefined,
    );
    content = completion.choices[0]?.message.content;
  } catch (err) {
    throw classifyAiError(request.signal?.aborted ? new OpenAI.APIUserAbortError() : err);
  }
  let parsed: unknown;
  try {
    parsed = storableReply(JSON.parse(content ?? ''));
  } catch {
    return { ok: false, reason: 'The AI reply was not JSON.' };
  }
  const result = request.schema.safeParse(parsed);
  if (!result.success) return { ok: false, reason: `The AI reply did not match the schema at ${pathOf(result.error.issues[0]?.path ?? [])}.` };
  return { ok: true, value: result.data };
}

/**
 * Where a reply missed the schema, as the schema's own field names and list indexes: the
 * validator's wording and the reply's text stay out of the reason, which reaches API clients.
 */
function pathOf(path: readonly PropertyKey[]): string {
  const parts = path.map((p) => (typeof p === 'number' ? String(p) : typeof p === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(p) ? p : '…'));
  return parts.length ? parts.join('.') : 'its top level';
}
