import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists identity.organizations (
      id text primary key,
      name text not null,
      slug text unique,
      created_at timestamptz not null default date_trunc('milliseconds', now())
    );
    create table if not exists identity.users (
      id text primary key,
      organization_id text not null references identity.organizations(id),
      email text not null,
      name text not null,
      password_hash text not null,
      created_at timestamptz not null default date_trunc('milliseconds', now())
    );
    create unique index if not exists users_email_lower on identity.users (lower(email));
    create table if not exists identity.sessions (
      id text primary key,
      token_hash text not null unique,
      user_id text not null references identity.users(id),
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      expires_at timestamptz not null,
      revoked_at timestamptz
    );
    create table if not exists identity.api_keys (
      id text primary key,
      organization_id text not null references identity.organizations(id),
      name text not null,
      key_hash text not null unique,
      prefix text not null,
      scopes text[] not null check (cardinality(scopes) > 0),
      rate_limit_per_minute integer not null default 120 check (rate_limit_per_minute > 0),
      created_by text references identity.users(id),
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    create index if not exists api_keys_org_created on identity.api_keys (organization_id, created_at desc, id desc);
    create table if not exists identity.rate_limit_buckets (
      key_id text primary key references identity.api_keys(id) on delete cascade,
      tokens double precision not null,
      refilled_at timestamptz not null,
      allowed boolean not null
    );
  `.execute(db);
}
