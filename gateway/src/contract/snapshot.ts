import { buildOpenApiDocument } from '../rest/openapi.js';

/**
 * The published contract of /api/v1 (issue 12 item 3): the document the gateway serves, as it is
 * committed in docs/openapi/v1.json. It is built for a placeholder origin (RFC 2606 `.example`),
 * so the snapshot does not depend on where a stack runs, with keys sorted and two-space indents,
 * so a change shows as a small, readable diff.
 */
export const SNAPSHOT_PATH = 'docs/openapi/v1.json';
export const SNAPSHOT_BASE_URL = 'https://hireloop.example';

/** Objects with their keys sorted, recursively; arrays keep their order (it can mean something). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted((value as Record<string, unknown>)[key])]));
  }
  return value;
}

/** The text of the snapshot file for a document. */
export function snapshotText(doc: unknown): string {
  return `${JSON.stringify(sorted(doc), null, 2)}\n`;
}

/** The document as the snapshot holds it: the one the gateway serves, built in-process for the placeholder origin. */
export function snapshotDocument(): unknown {
  return JSON.parse(snapshotText(buildOpenApiDocument(SNAPSHOT_BASE_URL)));
}

/**
 * A document served by a stack at `baseUrl`, as the snapshot would hold it: its origin replaced
 * by the placeholder one (in server and info URLs), so only the contract itself is compared.
 */
export function asSnapshot(served: unknown, baseUrl: string): unknown {
  const doc = JSON.parse(JSON.stringify(served).replaceAll(baseUrl, SNAPSHOT_BASE_URL)) as { servers?: unknown };
  doc.servers = buildOpenApiDocument(SNAPSHOT_BASE_URL).servers;
  return JSON.parse(snapshotText(doc));
}
