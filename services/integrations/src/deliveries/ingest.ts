import type { Kysely } from '@hireloop/platform';
import type { IntegrationsDB } from '../db.js';
import { redactIngestedEvents } from '../tasks/erasure-tombstones.js';
import type { DeliverySettings } from './delivery-settings.js';
import { ingestEvents, type EventEnvelope } from './fan-out.js';

type Settings = Pick<DeliverySettings, 'taskQueue' | 'breakerFailures' | 'leaseMs'>;
type Published = EventEnvelope & { organizationId: string };

/**
 * Where published events enter the delivery lane: each is kept and fanned out (ingestEvents) in
 * one transaction that also keeps the erasure's promise for events written or read before a scrub
 * and handed in after it (erasure-tombstones.ts). Returns the deliveries queued.
 */
function ingest(db: Kysely<IntegrationsDB>, settings: Settings, events: Published[], checked: Published[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const queued = await ingestEvents(trx, settings, events);
    await redactIngestedEvents(trx, checked);
    return queued;
  });
}

/** Another service's relay (`events.ingest`): the events that name an erased person are stored redacted. */
export function ingestRelayedEvents(db: Kysely<IntegrationsDB>, settings: Settings, events: Published[]): Promise<number> {
  return ingest(db, settings, events, events);
}

/**
 * The erasure's own record of its work: `candidate.erased`, and its task's `task.succeeded` or
 * `task.failed`. They name the erased id by design, and are written after its tombstones.
 */
function recordsAnErasure(event: Published): boolean {
  if (event.type === 'candidate.erased') return true;
  const data = event.data as { kind?: unknown } | null;
  return (event.type === 'task.succeeded' || event.type === 'task.failed') && data?.kind === 'candidate_erasure';
}

/**
 * Integrations' own outbox publisher (task.*, ats_event.processed, candidate.erased): the same
 * check, whether the publisher read the row before the scrub redacted it or the row was written
 * after the scrub, except for the erasure's own record.
 */
export function ingestOwnEvents(db: Kysely<IntegrationsDB>, settings: Settings, events: Published[]): Promise<number> {
  return ingest(db, settings, events, events.filter((e) => !recordsAnErasure(e)));
}
