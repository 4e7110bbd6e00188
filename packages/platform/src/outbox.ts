import { sql, type Kysely, type Transaction } from 'kysely';
import { ID_PREFIXES, type EventType } from '@hireloop/contracts';
import { newId } from './ids.js';

/** The channel a service notifies on commit, so a relay can react without polling hard. */
export const OUTBOX_CHANNEL = 'hireloop_outbox';

/**
 * SQL of an outbox table in `schema`, as the services' migrations create it, for tests that need
 * one in a schema of their own. The migrations keep their own frozen copy (they import no
 * application code).
 */
export function outboxTableSql(schema: string) {
  return sql`
    create table if not exists ${sql.id(schema, 'outbox')} (
      id text primary key,
      organization_id text not null,
      type text not null,
      payload jsonb not null,
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      published_at timestamptz
    );
    create index if not exists outbox_unpublished on ${sql.id(schema, 'outbox')} (created_at, id) where published_at is null;
  `;
}

export interface OutboxEvent {
  id: string;
  type: EventType;
  createdAt: string;
  data: unknown;
}

/**
 * Records an event in the service's outbox. Call it with the transaction that makes the change,
 * so the event exists exactly when the change does (ARCHITECTURE.md: no dual writes).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function recordEvent(trx: Transaction<any> | Kysely<any>, schema: string, organizationId: string, type: EventType, data: unknown): Promise<OutboxEvent> {
  const event: OutboxEvent = { id: newId(ID_PREFIXES.event), type, createdAt: new Date().toISOString(), data };
  await sql`insert into ${sql.id(schema, 'outbox')} (id, organization_id, type, payload, created_at)
            values (${event.id}, ${organizationId}, ${type}, ${JSON.stringify(event)}::jsonb, ${event.createdAt})`.execute(trx);
  await sql`select pg_notify(${OUTBOX_CHANNEL}, ${schema})`.execute(trx);
  return event;
}
