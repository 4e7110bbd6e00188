-- One Postgres role per service (PRODUCT.md §11), for docker-compose.yml: run by the one-shot
-- `db-roles` service at every `up` (idempotent). The same as the launcher's
-- tools/devstack/src/database-roles.ts: role <database>_<service> with LOGIN, owning its schema and
-- everything in it, and nothing else. Variables (psql -v): identity_pw, recruiting_pw,
-- integrations_pw, gateway_pw.
\set ON_ERROR_STOP on

select current_database() as db \gset

select format(case when exists (select 1 from pg_roles where rolname = r.role) then 'alter' else 'create' end
              || ' role %I login nosuperuser nocreatedb nocreaterole password %L', r.role, r.pw)
from (values (:'db' || '_identity', :'identity_pw'), (:'db' || '_recruiting', :'recruiting_pw'),
             (:'db' || '_integrations', :'integrations_pw'), (:'db' || '_gateway', :'gateway_pw')) as r(role, pw)
\gexec

select format('grant connect on database %I to %I', :'db', :'db' || '_' || s) from unnest(array['identity', 'recruiting', 'integrations', 'gateway']) as s
\gexec

-- Each schema: created owned by its role, or handed over with every table, view and sequence in it
-- (a database that the services used as the superuser before roles existed).
select format('create schema if not exists %I authorization %I', s, :'db' || '_' || s) from unnest(array['identity', 'recruiting', 'integrations', 'gateway']) as s
\gexec
select format('alter schema %I owner to %I', s, :'db' || '_' || s) from unnest(array['identity', 'recruiting', 'integrations', 'gateway']) as s
\gexec
select format('alter %s %I.%I owner to %I',
              case c.relkind when 'S' then 'sequence' when 'v' then 'view' when 'm' then 'materialized view' else 'table' end,
              n.nspname, c.relname, :'db' || '_' || n.nspname)
from pg_class c join pg_namespace n on n.oid = c.relnamespace
left join pg_depend d on d.objid = c.oid and d.deptype in ('a', 'i') and c.relkind = 'S'
where n.nspname in ('identity', 'recruiting', 'integrations', 'gateway') and c.relkind in ('r', 'p', 'v', 'm', 'S')
  and d.objid is null and pg_get_userbyid(c.relowner) <> :'db' || '_' || n.nspname
\gexec
