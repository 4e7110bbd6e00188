import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The pipeline (PRODUCT.md §7): an enrollment moves between stages and ends; `moved_at` says when it
// last did, and the flow's enrollment list pages newest first, optionally by stage or status.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table recruiting.enrollments add column if not exists moved_at timestamptz;
    update recruiting.enrollments set moved_at = enrolled_at where moved_at is null;
    alter table recruiting.enrollments
      alter column moved_at set not null,
      alter column moved_at set default date_trunc('milliseconds', now());
    create index if not exists enrollments_flow_enrolled on recruiting.enrollments (flow_id, enrolled_at desc, id desc);
    create index if not exists enrollments_flow_stage_enrolled on recruiting.enrollments (flow_id, stage_id, enrolled_at desc, id desc);
    create index if not exists enrollments_flow_status_enrolled on recruiting.enrollments (flow_id, status, enrolled_at desc, id desc);
  `.execute(db);
}
