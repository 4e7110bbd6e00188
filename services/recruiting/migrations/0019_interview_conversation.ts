import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The interview as a conversation (PRODUCT.md §12): each interview has a language (the invite
// page's texts, the AI notice and the follow-ups) and an accommodation of extra time on top of
// its duration. Interviews that exist get English and no extra time, as they had until now. An
// interview in progress now has no turns yet (the one-page form stored nothing before its
// submit): it continues as a conversation from its first question. An interview that is never
// completed keeps its turns until the answers retention scrubs them, counted from its expiry:
// the index serves that hourly look-up.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table recruiting.interviews
      add column if not exists language text not null default 'en',
      add column if not exists extra_time_percent integer not null default 0;
    create index if not exists interviews_unfinished_unscrubbed on recruiting.interviews (expires_at)
      where completed_at is null and content_scrubbed_at is null;
  `.execute(db);
}
