import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists recruiting.interviews (
      id text primary key,
      organization_id text not null,
      title text not null,
      status text not null check (status in ('scheduled', 'in_progress', 'completed', 'cancelled', 'expired')),
      candidate_id text not null references recruiting.candidates(id),
      position_id text not null references recruiting.positions(id),
      duration_minutes integer not null,
      invite_token_hash text not null unique,
      questions jsonb not null,
      answers jsonb,
      expires_at timestamptz not null,
      started_at timestamptz,
      completed_at timestamptz,
      cancelled_at timestamptz,
      cancellation_reason text,
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      updated_at timestamptz not null default date_trunc('milliseconds', now())
    );
    create index if not exists interviews_org_created on recruiting.interviews (organization_id, created_at desc, id desc);
    create index if not exists interviews_org_status_created on recruiting.interviews (organization_id, status, created_at desc, id desc);
    create index if not exists interviews_org_candidate_created on recruiting.interviews (organization_id, candidate_id, created_at desc, id desc);
    create index if not exists interviews_org_position_created on recruiting.interviews (organization_id, position_id, created_at desc, id desc);
    create index if not exists interviews_open_expiry on recruiting.interviews (expires_at) where status in ('scheduled', 'in_progress');

    create table if not exists recruiting.evaluations (
      interview_id text primary key references recruiting.interviews(id),
      organization_id text not null,
      status text not null check (status in ('processing', 'completed', 'failed')),
      overall_score integer,
      recommendation text,
      summary text,
      strengths jsonb not null default '[]',
      concerns jsonb not null default '[]',
      competencies jsonb not null default '[]',
      model text,
      error jsonb,
      completed_at timestamptz,
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      updated_at timestamptz not null default date_trunc('milliseconds', now())
    );

    create table if not exists recruiting.hiring_flows (
      id text primary key,
      organization_id text not null,
      name text not null,
      description text,
      position_id text references recruiting.positions(id),
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      updated_at timestamptz not null default date_trunc('milliseconds', now())
    );
    create index if not exists hiring_flows_org_created on recruiting.hiring_flows (organization_id, created_at desc, id desc);

    create table if not exists recruiting.flow_stages (
      id text primary key,
      flow_id text not null references recruiting.hiring_flows(id) on delete cascade,
      name text not null,
      kind text not null check (kind in ('screen', 'ai_interview', 'review', 'offer')),
      position integer not null,
      unique (flow_id, position)
    );

    create table if not exists recruiting.enrollments (
      id text primary key,
      organization_id text not null,
      flow_id text not null references recruiting.hiring_flows(id),
      candidate_id text not null references recruiting.candidates(id),
      stage_id text not null references recruiting.flow_stages(id),
      status text not null check (status in ('active', 'completed', 'withdrawn')),
      interview_id text references recruiting.interviews(id),
      enrolled_at timestamptz not null default date_trunc('milliseconds', now()),
      unique (flow_id, candidate_id)
    );
  `.execute(db);
}
