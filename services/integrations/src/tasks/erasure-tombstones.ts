import { redactEvent, sql, type Transaction } from '@hireloop/platform';
import type { IntegrationsDB } from '../db.js';
import type { EventEnvelope } from '../deliveries/fan-out.js';

/**
 * Closes the window between an outbox relay reading a person's events and integrations storing
 * them (issue 11): the erasure's integrations step records the person's ids here (tombstones, ids
 * only), then scrubs the stored copies, and every later ingest stores the events that name one of
 * them redacted. One advisory lock per organization orders the tombstones and the ingests: the
 * tombstones' transaction takes it alone, each ingest shares it. So an ingest either commits
 * before the tombstones do (and the scrub, which starts after that, redacts what it stored), or
 * takes the lock after they committed (and sees them).
 *
 * Both sides hold it briefly:
 * - the ingest takes it last, once its events and deliveries are written, for the tombstone check
 *   and the commit only. Held for a whole fan-out (10 000 deliveries in a storm's call), it made
 *   every erasure of the organization wait behind each ingest;
 * - the erasure holds it for the tombstones only, not for the scrub's scan of the organization's
 *   events, which made the ingests and the organization's other erasures wait behind each scan
 *   (docs/benchmarks.md, issue 19).
 */
const organizationLock = (organizationId: string) => sql`hashtextextended(${`erasure:${organizationId}`}, 0)`;

/** The erasure's side of the lock, taken by the transaction that records the tombstones, held to its end. */
export async function lockForTombstones(trx: Transaction<IntegrationsDB>, organizationId: string): Promise<void> {
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
 * Events handed in by another service's relay, once written in the ingest's transaction (events
 * and deliveries; deliveries carry no payload): those that name an erased person are stored with
 * their type and ids only (redactEvent, as the scrub leaves stored ones). Takes the ingest's side
 * of the lock for each organization of the batch (in one order), held to the commit.
 */
export async function redactIngestedEvents(trx: Transaction<IntegrationsDB>, events: (EventEnvelope & { organizationId: string })[]): Promise<void> {
  if (events.length === 0) return;
  for (const organizationId of [...new Set(events.map((e) => e.organizationId))].sort()) {
    await sql`select pg_advisory_xact_lock_shared(${organizationLock(organizationId)})`.execute(trx);
  }
  const texts = events.map((e) => JSON.stringify(e.data));
  const orgs = events.map((e) => e.organizationId);
  const named = await sql<{ i: string }>`
    select distinct x.i from unnest(${texts}::text[], ${orgs}::text[]) with ordinality as x(t, o, i)
    where exists (select 1 from integrations.erased_ids e where e.organization_id = x.o and position('"' || e.id || '"' in x.t) > 0)`.execute(trx);
  for (const { i } of named.rows) {
    const { organizationId, ...event } = events[Number(i) - 1]!;
    await trx.updateTable('integrations.events').set({ payload: JSON.stringify(redactEvent(event)) }).where('organization_id', '=', organizationId).where('id', '=', event.id).execute();
  }
}
