import { sql, type Kysely } from 'kysely';
import type { SecretBox } from './secret-box.js';

/**
 * Interview events carry the Interview resource, `inviteUrl` included (PRODUCT.md §8), but no
 * token is stored in clear (§11). So at rest — recruiting's outbox, integrations' events — an
 * event's `data.inviteUrl` holds `{ sealedInviteToken }` (the token sealed with INVITE_TOKEN_KEYS),
 * and the URL is rendered again where the event leaves the platform: the webhook delivery and
 * GET /events.
 */
export interface SealedInviteUrl {
  sealedInviteToken: string;
}

const INVITE_PATH = /\/i\/([A-Za-z0-9_-]+)$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSealedInviteUrl(value: unknown): value is SealedInviteUrl {
  return isRecord(value) && typeof value['sealedInviteToken'] === 'string';
}

/** `data` as it is stored: an `inviteUrl` string becomes its token, sealed. Anything else is returned as is. */
export function sealInviteUrl<T>(data: T, box: SecretBox): T {
  if (!isRecord(data) || typeof data['inviteUrl'] !== 'string') return data;
  const token = INVITE_PATH.exec(data['inviteUrl'])?.[1];
  if (!token) return data;
  return { ...data, inviteUrl: { sealedInviteToken: box.seal(token) } satisfies SealedInviteUrl };
}

/** `data` as clients see it: a sealed `inviteUrl` becomes `<publicBaseUrl>/i/<token>` again. */
export function renderInviteUrl<T>(data: T, box: SecretBox, publicBaseUrl: string): T {
  if (!isRecord(data) || !isSealedInviteUrl(data['inviteUrl'])) return data;
  return { ...data, inviteUrl: `${publicBaseUrl.replace(/\/$/, '')}/i/${box.open(data['inviteUrl'].sealedInviteToken)}` };
}

/**
 * Start-up pass over a table of event payloads (a jsonb `payload` column holding
 * `{id, type, createdAt, data}`, keyed by `id`): rows written before invite URLs were sealed get
 * their token sealed, and tokens sealed under an older INVITE_TOKEN_KEYS key are sealed again under
 * the current one, so the old key can be dropped (docs/operations.md). When there is nothing to do
 * it is one query that finds no row. Returns how many rows changed.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any service's database: the table is named at run time
export async function sealEventInviteUrls(db: Kysely<any>, table: { schema: string; name: string }, box: SecretBox): Promise<number> {
  const ref = sql.table(`${table.schema}.${table.name}`);
  let changed = 0;
  let after = '';
  for (;;) {
    const { rows } = await sql<{ id: string; data: Record<string, unknown> }>`
      select id, payload->'data' as data from ${ref}
      where id > ${after}
        and (jsonb_typeof(payload->'data'->'inviteUrl') = 'string'
             or not starts_with(coalesce(payload->'data'->'inviteUrl'->>'sealedInviteToken', ${box.currentPrefix}), ${box.currentPrefix}))
      order by id limit 500`.execute(db);
    if (rows.length === 0) return changed;
    for (const row of rows) {
      const stored = row.data['inviteUrl'];
      const next = isSealedInviteUrl(stored)
        ? { sealedInviteToken: box.seal(box.open(stored.sealedInviteToken)) }
        : (sealInviteUrl(row.data, box)['inviteUrl'] as unknown);
      if (typeof next === 'string') continue; // a URL that holds no token: nothing to seal
      await sql`update ${ref} set payload = jsonb_set(payload, '{data,inviteUrl}', ${JSON.stringify(next)}::jsonb)
                where id = ${row.id} and payload->'data'->'inviteUrl' = ${JSON.stringify(stored)}::jsonb`.execute(db);
      changed++;
    }
    after = rows[rows.length - 1]!.id;
  }
}

/** Renders the sealed invite URLs of stored events for the clients that receive them (integrations). */
export class EventInviteUrls {
  constructor(private readonly box: SecretBox, private readonly publicBaseUrl: string) {}

  render<T>(data: T): T {
    return renderInviteUrl(data, this.box, this.publicBaseUrl);
  }
}
