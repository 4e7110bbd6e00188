import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// What an audit row's change was, where its action and resource do not say it (a review's
// decision and the evaluation version it was on): PRODUCT.md §7, "a later review replaces the
// earlier one (the audit log keeps both)". Ids and codes only, never personal data. Null on
// every row made before it, and on actions with nothing more to say.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table recruiting.audit_events add column if not exists details jsonb`.execute(db);
}
