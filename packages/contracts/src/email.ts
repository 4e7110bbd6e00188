import { z } from 'zod';

export const EMAIL_MAX = 254;
const LOCAL_PART_MAX = 64;
const LABEL_MAX = 63;

/**
 * What `format: email` promises beyond zod's pattern (RFC 5321 §4.5.3.1, RFC 1035 §2.3.1): a
 * local part of at most 64 characters, domain labels of at most 63 that neither start nor end
 * with `-`. Such an address can never be delivered to (CLARIFICATIONS 2026-11-26, "E-mail
 * addresses"). Null when it holds; else what is wrong, for `details`.
 */
export function emailLimitBroken(address: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 0) return null; // zod's pattern says what is wrong
  if (at > LOCAL_PART_MAX) return `the part before @ must be at most ${LOCAL_PART_MAX} characters`;
  for (const label of address.slice(at + 1).split('.')) {
    if (label.length > LABEL_MAX) return `each dot-separated part of the domain must be at most ${LABEL_MAX} characters`;
    if (label.startsWith('-') || label.endsWith('-')) return 'a part of the domain must not start or end with -';
  }
  return null;
}

/**
 * An e-mail address a client sends: `format: email`, at most 254 characters, and the limits of
 * emailLimitBroken. Unique per organization, case-insensitive, where it names a candidate.
 */
export const EmailAddress = z
  .email()
  .max(EMAIL_MAX)
  .superRefine((address, ctx) => {
    const broken = emailLimitBroken(address);
    if (broken) ctx.addIssue({ code: 'custom', message: broken, input: address });
  })
  .describe('E-mail address; unique per organization, case-insensitive');

/**
 * An e-mail address as the API returns it: rows stored before the server checked the limits
 * above (a 65-character local part) are still returned, so the response schema drops
 * `format: email` and keeps the length and zod's pattern, which every stored address passed
 * (CLARIFICATIONS 2026-11-26, "E-mail addresses").
 */
export const StoredEmail = z.string().max(EMAIL_MAX).regex(z.regexes.email).describe('E-mail address; unique per organization, case-insensitive');
