import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// Console-login failures per submitted e-mail and per client IP (PRODUCT.md §11), shared by every
// identity instance. `key` is a SHA-256 of `email:<address>` or `ip:<address>`: no e-mail or IP in clear.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists identity.login_throttles (
      key text primary key,
      failures integer not null,
      window_started_at timestamptz not null,
      lockouts integer not null default 0,
      locked_until timestamptz,
      updated_at timestamptz not null
    );
    create index if not exists login_throttles_updated_at on identity.login_throttles (updated_at);
  `.execute(db);
}
