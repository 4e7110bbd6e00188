import { redactEvent, sql, type Transaction } from '@hireloop/platform';
import type { IntegrationsDB } from '../db.js';
import type { EventEnvelope } from '../deliveries/fan-out.js';

/**
 * Closes the window between an outbox relay reading a person's events and integrations storing
 * them (issue 11): the erasure's integrations step records the person's ids here (tombstones, ids
 * only) in the transaction that scrubs the stored copies, and every later ingest stores the events
 * that name one of them redacted. One advisory lock per organization orders the two: the scrub
 * takes it alone, each ingest shares it, so an ingest either commits before the scrub (which then
 * redacts what it stored) or starts after it (and sees its tombstones).
 */
const organizationLock = (organizationId: string) => sql`hashtextextended(${`erasure:${organizationId}`}, 0)`;

/** The erasure scrub's side of the lock, held to the end of its transaction. */
export async function lockForScrub(trx: Transaction<IntegrationsDB>, organizationId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${organizationLock(organizationId)})`.execute(trx);
}

/** Records the tombstones of an erased person: their candidate id and the ids of their interviews and enrollments. */
export async function recordTombstones(trx: Transaction<IntegrationsDB>, organizationId: string, candidateId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .insertInto('integrations.erased_ids')
    .values(ids.map((id) => ({ organization_id: organizationId, id, candidate_id: candidateId })))
    .onConflict((oc) => oc.columns(['organization_id', 'id']).doNothing())
    .execute();
}

/**
 * Events handed in by another service's relay, as they are to be stored: those that name an
 * erased person keep their type and ids only (redactEvent, as the scrub leaves stored ones).
 * Takes the ingest's side of the lock for each organization of the batch (in one order).
 */
export async function redactErasedEvents<E extends EventEnvelope & { organizationId: string }>(trx: Transaction<IntegrationsDB>, events: E[]): Promise<E[]> {
  if (events.length === 0) return events;
  for (const organizationId of [...new Set(events.map((e) => e.organizationId))].sort()) {
    await sql`select pg_advisory_xact_lock_shared(${organizationLock(organizationId)})`.execute(trx);
  }
  const texts = events.map((e) => JSON.stringify(e.data));
  const orgs = events.map((e) => e.organizationId);
  const named = await sql<{ i: string }>`
    select distinct x.i from unnest(${texts}::text[], ${orgs}::text[]) with ordinality as x(t, o, i)
    where exists (select 1 from integrations.erased_ids e where e.organization_id = x.o and position('"' || e.id || '"' in x.t) > 0)`.execute(trx);
  if (named.rows.length === 0) return events;
  const redact = new Set(named.rows.map((r) => Number(r.i) - 1));
  return events.map((event, i) => (redact.has(i) ? { ...event, ...redactEvent(event) } : event));
}
