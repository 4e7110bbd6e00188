import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// Timestamps default to millisecond precision so keyset cursors round-trip exactly.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists recruiting.candidates (
      id text primary key,
      organization_id text not null,
      email text not null,
      name text not null,
      phone text,
      source text not null default 'api',
      external_id text,
      metadata jsonb not null default '{}',
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      updated_at timestamptz not null default date_trunc('milliseconds', now())
    );
    create unique index if not exists candidates_org_email on recruiting.candidates (organization_id, lower(email));
    create unique index if not exists candidates_org_source_external on recruiting.candidates (organization_id, source, external_id) where external_id is not null;
    create index if not exists candidates_org_created on recruiting.candidates (organization_id, created_at desc, id desc);
    create index if not exists candidates_org_external_created on recruiting.candidates (organization_id, external_id, created_at desc, id desc) where external_id is not null;

    create table if not exists recruiting.positions (
      id text primary key,
      organization_id text not null,
      title text not null,
      description text,
      department text,
      location text,
      employment_type text not null,
      status text not null check (status in ('open', 'closed')),
      source text not null default 'api',
      external_id text,
      interview_questions jsonb not null default '[]',
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      updated_at timestamptz not null default date_trunc('milliseconds', now())
    );
    create unique index if not exists positions_org_source_external on recruiting.positions (organization_id, source, external_id) where external_id is not null;
    create index if not exists positions_org_created on recruiting.positions (organization_id, created_at desc, id desc);
    create index if not exists positions_org_status_created on recruiting.positions (organization_id, status, created_at desc, id desc);
  `.execute(db);
}
