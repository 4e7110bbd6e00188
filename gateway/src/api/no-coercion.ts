import type { AnyTRPCRouter } from '@trpc/server';

const COERCIBLE = new Set(['number', 'boolean', 'bigint', 'date']);

function isSchema(value: unknown): value is { _zod: { def: Record<string, unknown> } } {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function freeze(schema: unknown, seen: Set<unknown>): void {
  if (!isSchema(schema) || seen.has(schema)) return;
  seen.add(schema);
  const def = schema._zod.def;
  if (COERCIBLE.has(def['type'] as string)) {
    const coerce = def['coerce'] === true;
    Object.defineProperty(def, 'coerce', { get: () => coerce, set: () => {}, enumerable: true, configurable: false });
  }
  for (const value of Object.values(def)) {
    const children = Array.isArray(value) ? value : isSchema(value) ? [value] : value && typeof value === 'object' ? Object.values(value) : [];
    for (const child of children) freeze(child, seen);
  }
}

/**
 * trpc-to-openapi switches on zod coercion of numbers, booleans and dates by writing
 * `_def.coerce = true` into the input schemas, which are the shared ones of packages/contracts,
 * before each call (so `"duration": "30"` would pass as 30). We accept JSON numbers only
 * (CLARIFICATIONS "Encodings and numbers"): this pins every such schema's `coerce` to what its
 * author wrote, once, for the REST router. Integer query parameters parse their digits themselves
 * (`queryInt` in packages/contracts).
 */
export function refuseCoercion(router: AnyTRPCRouter): void {
  const seen = new Set<unknown>();
  for (const procedure of Object.values(router._def.procedures as Record<string, { _def: { inputs?: unknown[] } }>)) {
    for (const input of procedure._def.inputs ?? []) freeze(input, seen);
  }
}
