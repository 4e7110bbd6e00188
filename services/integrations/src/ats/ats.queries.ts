import { AppError, enqueueWorkflowStart, newId, recordAudit, recordEvent, replayedAsJson, runOnce, type Kysely } from '@hireloop/platform';
import { AtsEventBody, ID_PREFIXES, type AtsEventAccepted } from '@hireloop/contracts';
import { SCHEMA, type Db, type IntegrationsDB } from '../db.js';

/**
 * POST /ats/events: accepted once per (organization, source, eventId). A repeat answers
 * `duplicate` with the first one's id and changes nothing; a new one queues `ats:<id>`.
 */
export function acceptAtsEvent(db: Kysely<IntegrationsDB>, taskQueue: string, organizationId: string, body: AtsEventBody, idempotencyScope: string | null): Promise<AtsEventAccepted> {
  // A repeat of the Idempotency-Key scope answers as the first call did (`accepted`, not `duplicate`).
  return db.transaction().execute((trx) => runOnce(trx, SCHEMA, idempotencyScope, () => acceptOnce(trx, taskQueue, organizationId, body), replayedAsJson()));
}

async function acceptOnce(trx: Db, taskQueue: string, organizationId: string, body: AtsEventBody): Promise<AtsEventAccepted> {
  const id = newId(ID_PREFIXES.atsEvent);
  const inserted = await trx
    .insertInto('integrations.ats_events')
    .values({ id, organization_id: organizationId, source: body.source, event_id: body.eventId, type: body.type, payload: JSON.stringify(body), status: 'accepted' })
    .onConflict((oc) => oc.columns(['organization_id', 'source', 'event_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    const existing = await trx
      .selectFrom('integrations.ats_events')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('source', '=', body.source)
      .where('event_id', '=', body.eventId)
      .executeTakeFirstOrThrow();
    return { id: existing.id, status: 'duplicate' as const };
  }
  await enqueueWorkflowStart(trx, SCHEMA, {
    workflowId: `ats:${id}`,
    workflowType: 'processAtsEvent',
    // Ids only: the workflow reads the payload back (getAtsEventPayload), so no e-mail or name sits in its history.
    args: [{ atsEventId: id, organizationId }],
    organizationId,
    kind: 'ats_event',
    taskQueue,
  });
  await recordAudit(trx, SCHEMA, organizationId, 'ats_event.accepted', { type: 'ats_event', id });
  return { id, status: 'accepted' as const };
}

/** The event as the ATS sent it, for the workflow's activity (never carried in the workflow input). */
export async function getAtsEventPayload(db: Kysely<IntegrationsDB>, organizationId: string, id: string): Promise<AtsEventBody> {
  const row = await db.selectFrom('integrations.ats_events').select('payload').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('not_found', `No ATS event ${id}.`);
  const payload: unknown = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
  // An erasure redacts the events of its person that were not applied yet (erasure.ts): there is
  // nothing left to apply, for good, so the event fails at once (a 4xx is not retried).
  if (typeof payload === 'object' && payload !== null && (payload as { redacted?: unknown }).redacted === true) {
    throw new AppError('not_found', `ATS event ${id} names a candidate who was erased before it was applied; nothing of it is kept.`);
  }
  // Accepted by the rules of its day: one that no longer passes them (a bound added since) is
  // refused for good, with the reason, not failed as a 500 and retried.
  const parsed = AtsEventBody.safeParse(payload);
  if (!parsed.success) throw new AppError('validation_failed', `ATS event ${id} no longer passes validation: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ').slice(0, 500)}`);
  return parsed.data;
}

/** Records the outcome once and emits `ats_event.processed` with what was matched or created. */
export function finishAtsEvent(db: Kysely<IntegrationsDB>, organizationId: string, id: string, outcome: { result: Record<string, unknown> } | { error: { code: string; message: string } }) {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('integrations.ats_events').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row) throw new AppError('not_found', `No ATS event ${id}.`);
    if (row.status !== 'accepted') return { status: row.status };
    const ok = 'result' in outcome;
    const result = ok ? outcome.result : { error: outcome.error };
    await trx
      .updateTable('integrations.ats_events')
      .set({ status: ok ? 'processed' : 'failed', result: JSON.stringify(result), processed_at: new Date() })
      .where('id', '=', id)
      .execute();
    await recordEvent(trx, SCHEMA, organizationId, 'ats_event.processed', {
      id,
      source: row.source,
      eventId: row.event_id,
      type: row.type,
      status: ok ? 'processed' : 'failed',
      ...result,
    });
    return { status: ok ? 'processed' : 'failed' };
  });
}
