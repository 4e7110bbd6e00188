import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
//
// Incremental sync (PRODUCT.md §5, docs/api.md "Incremental sync"):
// - every write that marks a row changed gets `updated_at` from the database clock, at
//   microsecond precision, so one clock orders every change (no skew between instances);
// - a deferred check at commit refuses a transaction that commits more than the commit window
//   (`hireloop.sync_commit_window_ms`, default 5000) after it stamped a row, which bounds how
//   late a change can become visible: lists with `updatedAfter` show only rows older than twice
//   that window, so a page never skips a change that commits afterwards;
// - one index per list for the `(updated_at, id)` ascending walk.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function recruiting.stamp_updated_at() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' or new.updated_at is distinct from old.updated_at then
        new.updated_at := clock_timestamp();
      end if;
      return new;
    end $$;

    create or replace function recruiting.check_commit_window() returns trigger language plpgsql as $$
    declare
      window_ms integer := coalesce(nullif(current_setting('hireloop.sync_commit_window_ms', true), ''), '5000')::integer;
    begin
      if clock_timestamp() - new.updated_at > make_interval(secs => window_ms / 1000.0) then
        raise exception 'transaction committed later than the sync commit window after its change'
          using errcode = '40001';
      end if;
      return null;
    end $$;
  `.execute(db);
  for (const table of ['candidates', 'positions', 'interviews']) {
    await sql`
      drop trigger if exists stamp_updated_at on ${sql.id('recruiting', table)};
      create trigger stamp_updated_at before insert or update on ${sql.id('recruiting', table)}
        for each row execute function recruiting.stamp_updated_at();
      drop trigger if exists check_commit_window_insert on ${sql.id('recruiting', table)};
      create constraint trigger check_commit_window_insert after insert on ${sql.id('recruiting', table)}
        deferrable initially deferred
        for each row execute function recruiting.check_commit_window();
      drop trigger if exists check_commit_window_update on ${sql.id('recruiting', table)};
      create constraint trigger check_commit_window_update after update on ${sql.id('recruiting', table)}
        deferrable initially deferred
        for each row when (old.updated_at is distinct from new.updated_at)
        execute function recruiting.check_commit_window();
      create index if not exists ${sql.id(`${table}_org_updated`)} on ${sql.id('recruiting', table)} (organization_id, updated_at, id);
    `.execute(db);
  }
}
