import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { sealInviteUrl, type Kysely, type Logger, type SecretBox } from '@hireloop/platform';
import type { RecruitingDB } from '../db.js';

/**
 * Invite tokens (PRODUCT.md §11): 256 random bits per interview. Postgres keeps SHA-256 of the
 * token, for look-up, and the token sealed with INVITE_TOKEN_KEYS (AES-256-GCM with a key id), so
 * `inviteUrl` can be shown again and the key rotated; the token itself is never stored in clear.
 */
export class InviteTokens {
  private readonly legacyKey: Buffer | null;

  /** `legacySecret`: the INTERNAL_AUTH_SECRET tokens were derived from before they were random. */
  constructor(
    private readonly box: SecretBox,
    private readonly publicBaseUrl: string,
    legacySecret?: string,
  ) {
    this.legacyKey = legacySecret ? Buffer.from(hkdfSync('sha256', legacySecret, 'hireloop', 'interview-invite-token', 32)) : null;
  }

  /** A fresh token, and what is stored of it. */
  issue(): { token: string; hash: string; sealed: string } {
    const token = randomBytes(32).toString('base64url');
    return { token, hash: InviteTokens.hash(token), sealed: this.box.seal(token) };
  }

  urlFor(row: { id: string; invite_token_sealed: string | null }): string {
    const token = row.invite_token_sealed ? this.box.open(row.invite_token_sealed) : this.legacyTokenFor(row.id);
    if (!token) throw new Error(`the invite token of ${row.id} is not sealed and INTERNAL_AUTH_SECRET is not set to derive it`);
    return `${this.publicBaseUrl}/i/${token}`;
  }

  /** The token an interview got before tokens were random: HMAC of its id (null without the old secret). */
  legacyTokenFor(interviewId: string): string | null {
    return this.legacyKey ? createHmac('sha256', this.legacyKey).update(interviewId).digest('base64url') : null;
  }

  seal(token: string): string {
    return this.box.seal(token);
  }

  /** An interview as its events store it: the invite token sealed, not the URL (event-invite-urls.ts). */
  forEvent<T>(interview: T): T {
    return sealInviteUrl(interview, this.box);
  }

  /** The prefix of tokens sealed under the current key. */
  get currentPrefix(): string {
    return this.box.currentPrefix;
  }

  /** The sealed form under the current key, or null when it is already there. */
  resealed(sealed: string): string | null {
    return this.box.isCurrent(sealed) ? null : this.box.seal(this.box.open(sealed));
  }

  static hash(token: string): string {
    return createHash('sha256').update(token).digest('hex');
  }
}

/**
 * Start-up backfill (CLARIFICATIONS.md "Secrets and roles"): interviews created when tokens were
 * derived get their derived token sealed, so their invite URLs keep working and can be shown
 * without the old secret once every row is sealed. Not a migration: it needs the secret, and
 * migrations import no application code. A row whose stored hash does not match the derived
 * token (the old secret is not the one it was made with) is left alone and counted.
 */
export async function sealLegacyInviteTokens(db: Kysely<RecruitingDB>, tokens: InviteTokens, logger: Logger): Promise<{ sealed: number; unmatched: number }> {
  let sealed = 0;
  let unmatched = 0;
  let after = '';
  for (;;) {
    const rows = await db.selectFrom('recruiting.interviews').select(['id', 'invite_token_hash'])
      .where('invite_token_sealed', 'is', null).where('id', '>', after).orderBy('id').limit(500).execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      const token = tokens.legacyTokenFor(row.id);
      if (!token) {
        logger.error({ interviews: rows.length }, 'interviews with derived invite tokens remain: set INTERNAL_AUTH_SECRET to the old secret for one start so they are sealed');
        return { sealed, unmatched: unmatched + rows.length };
      }
      if (InviteTokens.hash(token) !== row.invite_token_hash) {
        unmatched++;
        continue;
      }
      await db.updateTable('recruiting.interviews').set({ invite_token_sealed: tokens.seal(token) })
        .where('id', '=', row.id).where('invite_token_sealed', 'is', null).execute();
      sealed++;
    }
    after = rows[rows.length - 1]!.id;
  }
  if (unmatched > 0) logger.error({ unmatched }, 'invite tokens that the configured INTERNAL_AUTH_SECRET did not derive were left unsealed');
  return { sealed, unmatched };
}

/**
 * Start-up re-seal after a key rotation: tokens sealed under an older INVITE_TOKEN_KEYS key are
 * sealed again under the current one, so the old key can be dropped once every recruiting
 * instance has started with the new key first (docs/operations.md). When there is nothing to do
 * it is one query that finds no row.
 */
export async function resealInviteTokens(db: Kysely<RecruitingDB>, tokens: InviteTokens): Promise<number> {
  let resealed = 0;
  let after = '';
  for (;;) {
    const rows = await db.selectFrom('recruiting.interviews').select(['id', 'invite_token_sealed'])
      .where('invite_token_sealed', 'is not', null).where('invite_token_sealed', 'not like', `${tokens.currentPrefix}%`)
      .where('id', '>', after).orderBy('id').limit(500).execute();
    if (rows.length === 0) return resealed;
    for (const row of rows) {
      const next = tokens.resealed(row.invite_token_sealed!);
      if (!next) continue;
      await db.updateTable('recruiting.interviews').set({ invite_token_sealed: next })
        .where('id', '=', row.id).where('invite_token_sealed', '=', row.invite_token_sealed).execute();
      resealed++;
    }
    after = rows[rows.length - 1]!.id;
  }
}
