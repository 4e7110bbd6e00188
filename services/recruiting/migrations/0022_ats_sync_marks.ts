import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The latest `occurredAt` applied per ATS subject (a candidate, or a candidate's application to a
// position), so that an older event arriving late changes nothing, and whether the application
// was closed (rejected or hired) by that event. Ids and times only, never personal data.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists recruiting.ats_sync_marks (
      organization_id text not null,
      source text not null,
      subject text not null,
      candidate_id text not null,
      occurred_at timestamptz not null,
      closed_as text check (closed_as in ('rejected', 'hired')),
      primary key (organization_id, source, subject)
    );
    create index if not exists ats_sync_marks_candidate on recruiting.ats_sync_marks (candidate_id);
  `.execute(db);
}
