/**
 * Every payload of a Temporal history (workflow inputs, activity inputs and results), decoded:
 * what Temporal keeps, and what erasure could not reach. Tests assert no personal data is in it.
 */
export function payloadTexts(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) payloadTexts(item, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'payloads' && Array.isArray(value)) for (const p of value as { data?: Uint8Array }[]) out.push(p.data ? Buffer.from(p.data).toString('utf8') : '');
      else payloadTexts(value, out);
    }
  }
  return out;
}
