import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The attempts that kept a response excerpt, by event: an erasure clears the excerpts of the
// events that mention the person, and without an index it read every attempt of the table while
// it held the organization's erasure lock (200 000 attempts after a storm of dead endpoints, so
// each erasure made that organization's ingest wait). Attempts without an excerpt (refused,
// timed out) are not in it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index if not exists delivery_attempts_excerpts_by_event on integrations.delivery_attempts (event_id)
      where response_excerpt is not null;
  `.execute(db);
}
