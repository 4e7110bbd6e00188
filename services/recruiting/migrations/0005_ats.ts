import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists recruiting.ats_stage_mappings (
      organization_id text not null,
      source text not null,
      stage text not null,
      action text not null check (action in ('ai_interview')),
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      primary key (organization_id, source, stage)
    );
  `.execute(db);
}
