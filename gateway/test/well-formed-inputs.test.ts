import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { restRouter } from '../src/rest/router.js';

/** Strings no public input may accept (PRODUCT.md §3), shaped to pass most other rules. */
const ILL_FORMED = ['abc\u0000def', '\u0000', 'a\u0000@example.com', 'https://example.com/\u0000', 'https://example.com/\ud800', 'https://example.com/?q=\udc00', 'abc\ud800def', '\udc00', 'cand_0000000000\u0000'];

type Node = { _zod: { def: Record<string, unknown> } };
const isSchema = (v: unknown): v is Node => typeof v === 'object' && v !== null && '_zod' in v;

/** Every string schema inside `schema`, with the path that reaches it. */
function strings(schema: unknown, path: string, seen: Set<unknown>, out: [string, z.ZodType][]): [string, z.ZodType][] {
  if (!isSchema(schema) || seen.has(schema)) return out;
  seen.add(schema);
  const def = schema._zod.def;
  if (def['type'] === 'string') out.push([path, schema as unknown as z.ZodType]);
  for (const [key, value] of Object.entries(def)) {
    if (key === 'checks') continue;
    if (key === 'shape' && value && typeof value === 'object') {
      for (const [name, child] of Object.entries(value)) strings(child, `${path}.${name}`, seen, out);
    } else if (Array.isArray(value)) value.forEach((child) => strings(child, path, seen, out));
    else strings(value, path, seen, out);
  }
  return out;
}

/**
 * The rule lives in the shared string types of packages/contracts (`text()`, `wellFormed()`);
 * this holds every public route to them: no string in any REST input accepts U+0000 or a lone
 * surrogate, however its other rules are written.
 */
describe('every public input string is well-formed (PRODUCT.md §3)', () => {
  it('no string schema of any /api/v1 input accepts U+0000 or a lone surrogate', () => {
    const procedures = restRouter._def.procedures as Record<string, { _def: { inputs?: unknown[] } }>;
    let checked = 0;
    for (const [name, procedure] of Object.entries(procedures)) {
      for (const input of procedure._def.inputs ?? []) {
        for (const [path, schema] of strings(input, name, new Set(), [])) {
          checked++;
          for (const value of ILL_FORMED) assert.equal(schema.safeParse(value).success, false, `${path} accepts ${JSON.stringify(value)}`);
        }
      }
    }
    assert.ok(checked > 20, `only ${checked} string schemas found`);
  });
});
