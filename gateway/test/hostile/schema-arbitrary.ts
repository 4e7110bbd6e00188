import fc from 'fast-check';
import { NASTY_VALUES } from './corpus.js';

/** The subset of JSON Schema (2020-12, as in our OpenAPI document) the generator reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
}

/** Ids the suite created, by prefix: a generated id is sometimes a real one, so success paths run. */
export type KnownIds = Map<string, string[]>;

/** Webhook URLs never point at a real receiver: `.invalid` never resolves (RFC 2606). */
const SAFE_URL = fc.webPath().map((p) => `https://fuzz.invalid${p.startsWith('/') ? p : `/${p}`}`.slice(0, 200));

function fromPattern(pattern: string, known: KnownIds): fc.Arbitrary<string> {
  const prefix = /^\^([a-z]+)_/.exec(pattern)?.[1];
  let generated: fc.Arbitrary<string>;
  try {
    generated = fc.stringMatching(new RegExp(pattern));
  } catch {
    generated = fc.string();
  }
  const real = prefix ? known.get(prefix) : undefined;
  return real?.length ? fc.oneof({ arbitrary: fc.constantFrom(...real), weight: 3 }, { arbitrary: generated, weight: 1 }) : generated;
}

function stringOf(schema: JsonSchema, known: KnownIds): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 60, Math.max(min, 60));
  const fit = (a: fc.Arbitrary<string>) => a.filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Infinity));
  if (schema.format === 'email') return fit(fc.emailAddress());
  if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'uri') return SAFE_URL;
  if (schema.pattern) return fit(fromPattern(schema.pattern, known));
  return fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }).filter((s) => s.trim().length >= min);
}

/**
 * Valid-looking values for a schema of the document, `$ref`s resolved against its components.
 * Optional properties come and go; `depth` bounds recursion.
 */
export function arbitraryFor(schema: JsonSchema, resolve: (ref: string) => JsonSchema, known: KnownIds, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) return arbitraryFor(resolve(schema.$ref), resolve, known, depth);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    // A variant that only narrows the schema's own keywords (`oneOf: [{required: [a]}, {required: [b]}]`)
    // is generated with them: the object and its properties, then that variant's requirement.
    const { anyOf: _anyOf, oneOf: _oneOf, ...own } = schema;
    const withOwn = (v: JsonSchema): JsonSchema => (own.type || own.properties ? { ...own, ...v, items: own.items ?? v.items, required: [...(own.required ?? []), ...(v.required ?? [])] } : v);
    return fc.oneof(...variants.map((v) => arbitraryFor(withOwn(v), resolve, known, depth + 1)));
  }
  if (schema.allOf?.length) {
    // The schema's own keywords with its subschemas' (a name: its type and lengths, and the last of its patterns).
    const { allOf, ...own } = schema;
    return arbitraryFor(Object.assign(own, ...allOf) as JsonSchema, resolve, known, depth);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return stringOf(schema, known);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const items = schema.items ? arbitraryFor(schema.items, resolve, known, depth + 1) : fc.anything();
      // At most 3 items, unless the schema needs more (a rubric's five anchors).
      const minLength = schema.minItems ?? 0;
      return fc.array(items, { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 3)) });
    }
    case 'object': {
      if (depth > 4) return fc.constant({});
      const props = schema.properties ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, child] of Object.entries(props)) record[name] = arbitraryFor(child, resolve, known, depth + 1);
      const required = schema.required ?? [];
      if (Object.keys(props).length === 0 && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        const key = schema.propertyNames ? stringOf(schema.propertyNames, known) : fc.string({ minLength: 1, maxLength: 20 });
        return fc.dictionary(key, arbitraryFor(schema.additionalProperties, resolve, known, depth + 1), { maxKeys: 3 });
      }
      return fc.record(record, { requiredKeys: required.filter((k) => k in record) });
    }
    default:
      return fc.anything({ maxDepth: 2 });
  }
}

/** Every path to a value inside `value` (object keys and array indexes), the root included. */
function pathsOf(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  return out;
}

function setAt(root: unknown, path: (string | number)[], replace: (old: unknown) => unknown | typeof REMOVE): unknown {
  if (path.length === 0) {
    const next = replace(root);
    return next === REMOVE ? undefined : next;
  }
  const copy: unknown = structuredClone(root);
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  const next = replace(node[last]);
  if (next === REMOVE) {
    if (Array.isArray(node)) node.splice(last as number, 1);
    else delete node[last];
  } else node[last] = next;
  return copy;
}

const REMOVE = Symbol('remove');

/**
 * A valid value, then broken: one place in it replaced by a nasty value, a number turned into its
 * string, a field dropped, or an unknown field added. About one case in four stays valid.
 */
export function broken(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, fc.nat(), fc.integer({ min: 0, max: 7 }), fc.constantFrom(...NASTY_VALUES), fc.string({ maxLength: 10 })).map(([value, pick, how, nasty, key]) => {
    if (how < 2) return value;
    const paths = pathsOf(value);
    const path = paths[pick % paths.length]!;
    switch (how) {
      case 2:
      case 3:
      case 4:
        return setAt(value, path, () => nasty);
      case 5:
        return setAt(value, path, (old) => (typeof old === 'number' || typeof old === 'boolean' ? String(old) : nasty));
      case 6:
        return path.length ? setAt(value, path, () => REMOVE) : value;
      default:
        return value && typeof value === 'object' && !Array.isArray(value) ? { ...value, [`x${key}`]: nasty } : nasty;
    }
  });
}
