import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// Notice and consent on the invite page (PRODUCT.md §7, §10): the candidate's consent (time and
// notice version), and `declined` when the candidate asks for a human alternative instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table recruiting.interviews
      add column if not exists consent_given_at timestamptz,
      add column if not exists consent_notice_version text,
      add column if not exists declined_at timestamptz,
      drop constraint if exists interviews_status_check,
      add constraint interviews_status_check
        check (status in ('scheduled', 'in_progress', 'completed', 'cancelled', 'expired', 'declined'));
  `.execute(db);
}
