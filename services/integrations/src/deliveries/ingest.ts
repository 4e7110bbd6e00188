import type { Kysely } from '@hireloop/platform';
import type { IntegrationsDB } from '../db.js';
import { adoptScrubbedOwnEvents, redactIngestedEvents } from '../tasks/erasure-tombstones.js';
import type { DeliverySettings } from './delivery-settings.js';
import { ingestEvents, type EventEnvelope } from './fan-out.js';

type Settings = Pick<DeliverySettings, 'taskQueue' | 'breakerFailures'>;
type Published = EventEnvelope & { organizationId: string };

/**
 * Where published events enter the delivery lane: each is kept and fanned out (ingestEvents) in
 * one transaction that also keeps the erasure's promise for events read before a scrub and handed
 * in after it (erasure-tombstones.ts). Returns the deliveries queued.
 */

/** Another service's relay (`events.ingest`): the events that name an erased person are stored redacted. */
export function ingestRelayedEvents(db: Kysely<IntegrationsDB>, settings: Settings, events: Published[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const queued = await ingestEvents(trx, settings, events);
    await redactIngestedEvents(trx, events);
    return queued;
  });
}

/** Integrations' own outbox publisher: an event whose outbox row the scrub redacted is stored as the scrub left it. */
export function ingestOwnEvents(db: Kysely<IntegrationsDB>, settings: Settings, events: Published[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const queued = await ingestEvents(trx, settings, events);
    await adoptScrubbedOwnEvents(trx, events);
    return queued;
  });
}
