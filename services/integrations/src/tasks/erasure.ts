import { mentionsAnyId, newId, recordEvent, redactEventPayloads, sql, type Kysely } from '@hireloop/platform';
import { ID_PREFIXES, type Task } from '@hireloop/contracts';
import type { createRecruitingClient } from '@hireloop/recruiting/client';
import { SCHEMA, type Db, type IntegrationsDB } from '../db.js';
import { toTask } from './tasks.queries.js';

function findErasureTask(db: Db, organizationId: string, candidateId: string) {
  return db.selectFrom('integrations.tasks').selectAll().where('organization_id', '=', organizationId).where('kind', '=', 'candidate_erasure').where('candidate_id', '=', candidateId).executeTakeFirst();
}

/**
 * The `candidate_erasure` task of a candidate, created once: by DELETE /candidates/{id}, or by
 * the workflow's first step when the request died between recruiting's commit and this one.
 */
export async function ensureErasureTask(db: Kysely<IntegrationsDB>, organizationId: string, candidateId: string): Promise<Task> {
  const now = new Date();
  await db
    .insertInto('integrations.tasks')
    .values({
      id: newId(ID_PREFIXES.task, now.getTime()),
      organization_id: organizationId,
      kind: 'candidate_erasure',
      status: 'queued',
      input: JSON.stringify({ candidateId }),
      position_id: null,
      candidate_id: candidateId,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['organization_id', 'candidate_id']).where('kind', '=', 'candidate_erasure').doNothing())
    .execute();
  return toTask((await findErasureTask(db, organizationId, candidateId))!);
}

/**
 * DELETE /candidates/{id} (PRODUCT.md §7): recruiting marks the candidate erased (404 from its
 * commit on) and queues the workflow `erase:<id>`; the answer is the task that follows it. A
 * candidate erased before gets its task again; an unknown one (or another organization's) is 404.
 */
export async function startCandidateErasure(db: Kysely<IntegrationsDB>, recruiting: ReturnType<typeof createRecruitingClient>, organizationId: string, candidateId: string): Promise<Task> {
  const existing = await findErasureTask(db, organizationId, candidateId);
  if (existing) return toTask(existing);
  await recruiting.forOrganization(organizationId).candidates.erase.mutate({ id: candidateId });
  return ensureErasureTask(db, organizationId, candidateId);
}

/**
 * The erasure workflow's integrations step. `ids` are the person's: the candidate's and those of
 * their interviews and enrollments. The stored events that mention one (the events list, replays
 * and pending retries read them) and the outbox rows keep their type and ids only; the response
 * excerpts of their delivery attempts go (a receiver may echo what it got); inbound ATS events
 * that resolved to the candidate lose the candidate's details. Running it again changes nothing.
 */
export function scrubErasedPerson(db: Kysely<IntegrationsDB>, organizationId: string, candidateId: string, ids: string[]) {
  return db.transaction().execute(async (trx) => {
    const eventIds = (await trx.selectFrom('integrations.events').select('id').where('organization_id', '=', organizationId).where(mentionsAnyId('payload', ids)).execute()).map((r) => r.id);
    const events = await redactEventPayloads(trx, SCHEMA, 'events', organizationId, ids);
    const outbox = await redactEventPayloads(trx, SCHEMA, 'outbox', organizationId, ids);
    const excerpts = eventIds.length
      ? Number(
          (await trx.updateTable('integrations.delivery_attempts').set({ response_excerpt: null }).where('organization_id', '=', organizationId).where('event_id', 'in', eventIds).where('response_excerpt', 'is not', null).executeTakeFirst())
            .numUpdatedRows,
        )
      : 0;
    const ats = await trx
      .updateTable('integrations.ats_events')
      .set({ payload: sql<string>`jsonb_build_object('source', payload -> 'source', 'eventId', payload -> 'eventId', 'type', payload -> 'type', 'occurredAt', payload -> 'occurredAt', 'redacted', true)` })
      .where('organization_id', '=', organizationId)
      .where(mentionsAnyId('result', [candidateId]))
      .where(sql<boolean>`not coalesce((payload ->> 'redacted')::boolean, false)`)
      .executeTakeFirst();
    return { events, outbox, excerpts, atsEvents: Number(ats.numUpdatedRows) };
  });
}

/** The erasure's last step: the task succeeds, with `candidate.erased` (the id only) and `task.succeeded`, once. */
export function finishCandidateErasure(db: Kysely<IntegrationsDB>, organizationId: string, candidateId: string): Promise<Task> {
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('integrations.tasks')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('kind', '=', 'candidate_erasure')
      .where('candidate_id', '=', candidateId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (current.status === 'succeeded') return toTask(current);
    const now = new Date();
    const row = await trx
      .updateTable('integrations.tasks')
      .set({ status: 'succeeded', result: JSON.stringify({ candidateId, erasedAt: now.toISOString() }), error: null, completed_at: now, updated_at: now })
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const task = toTask(row);
    await recordEvent(trx, SCHEMA, organizationId, 'candidate.erased', { id: candidateId });
    await recordEvent(trx, SCHEMA, organizationId, 'task.succeeded', task);
    return task;
  });
}
