import { z } from 'zod';

/** ISO 8601 UTC timestamp as it appears on the wire. */
export const Timestamp = z.iso.datetime({ offset: false }).describe('ISO 8601 UTC timestamp');

/** A prefixed, time-sortable identifier such as `org_01J…`. */
export function prefixedId(prefix: string) {
  return z
    .string()
    .regex(new RegExp(`^${prefix}_[0-9A-Za-z]{10,40}$`), `must be an id starting with ${prefix}_`)
    .describe(`Identifier with the \`${prefix}_\` prefix`);
}

export const ID_PREFIXES = {
  candidate: 'cand',
  position: 'pos',
  interview: 'int',
  flow: 'flow',
  stage: 'stage',
  enrollment: 'enr',
  webhook: 'wh',
  task: 'task',
  event: 'evt',
  atsEvent: 'atsevt',
  apiKey: 'key',
  organization: 'org',
  user: 'usr',
  session: 'ses',
} as const;

/** Success envelope: `{"data": …}` and nothing else at the top level (PRODUCT.md §3). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

/** Page size of every list (PRODUCT.md §4). */
export const PageLimit = z.coerce.number().int().min(1).max(100).default(25).describe('Page size, 1–100');
export const Cursor = z.string().max(512).describe('Opaque cursor from the previous page\'s `Link: rel="next"`');
