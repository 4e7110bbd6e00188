import { isDeepStrictEqual } from 'node:util';
import { appErrorFromClientError, enqueueWorkflowStart, idsOnly, mentionsAnyId, newId, recordAudit, recordEvent, redactEventPayloads, redactEventPayloadsMentioning, sql, type Kysely } from '@hireloop/platform';
import type { Expression, SqlBool } from 'kysely';
import { ID_PREFIXES, type Task } from '@hireloop/contracts';
import type { createRecruitingClient } from '@hireloop/recruiting/client';
import { SCHEMA, type Db, type IntegrationsDB } from '../db.js';
import { toTask } from './tasks.queries.js';
import { lockForTombstones, recordTombstones } from './erasure-tombstones.js';

/** Erasure tasks of a candidate that have not failed: there is at most one (an index holds to it). */
const LIVE = sql<boolean>`kind = 'candidate_erasure' and status <> 'failed'`;

/** The candidate's erasure task DELETE answers with: the newest (a new one starts only after the last failed). */
function findErasureTask(db: Db, organizationId: string, candidateId: string) {
  return db
    .selectFrom('integrations.tasks')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('kind', '=', 'candidate_erasure')
    .where('candidate_id', '=', candidateId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

function newErasureTask(organizationId: string, candidateId: string) {
  const now = new Date();
  return {
    id: newId(ID_PREFIXES.task, now.getTime()),
    organization_id: organizationId,
    kind: 'candidate_erasure' as const,
    status: 'queued' as const,
    input: JSON.stringify({ candidateId }),
    position_id: null,
    candidate_id: candidateId,
    created_at: now,
    updated_at: now,
  };
}

/**
 * The `candidate_erasure` task of a candidate, created once per attempt: by DELETE /candidates/{id},
 * or by the workflow's first step when the request died between recruiting's commit and this one.
 */
export async function ensureErasureTask(db: Kysely<IntegrationsDB>, organizationId: string, candidateId: string): Promise<Task> {
  await db
    .insertInto('integrations.tasks')
    .values(newErasureTask(organizationId, candidateId))
    .onConflict((oc) => oc.columns(['organization_id', 'candidate_id']).where(LIVE).doNothing())
    .execute();
  return toTask((await findErasureTask(db, organizationId, candidateId))!);
}

/**
 * A new attempt after a failed one, in one transaction: a new task and its own workflow
 * (`erase:<candidate>:<task>`; the failed attempt's id is taken for good). The failed task stays
 * failed, as the record of that attempt. Two DELETEs at once make one attempt.
 */
function retryErasure(db: Kysely<IntegrationsDB>, taskQueue: string, organizationId: string, candidateId: string): Promise<Task> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('integrations.tasks')
      .values(newErasureTask(organizationId, candidateId))
      .onConflict((oc) => oc.columns(['organization_id', 'candidate_id']).where(LIVE).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) {
      await enqueueWorkflowStart(trx, SCHEMA, {
        workflowId: `erase:${candidateId}:${inserted.id}`,
        workflowType: 'eraseCandidate',
        args: [{ organizationId, candidateId }],
        organizationId,
        kind: 'candidate_erasure',
        taskQueue,
      });
      await recordAudit(trx, SCHEMA, organizationId, 'candidate.erased', { type: 'candidate', id: candidateId });
    }
    return toTask((await findErasureTask(trx, organizationId, candidateId))!);
  });
}

/**
 * DELETE /candidates/{id} (PRODUCT.md §7): recruiting marks the candidate erased (404 from its
 * commit on) and queues the workflow `erase:<id>`; the answer is the task that follows it. A
 * candidate erased before gets its task again (queued, running or succeeded: nothing new starts);
 * after a failed task, a new attempt starts. An unknown candidate (or another organization's) is 404.
 */
export async function startCandidateErasure(db: Kysely<IntegrationsDB>, recruiting: ReturnType<typeof createRecruitingClient>, taskQueue: string, organizationId: string, candidateId: string): Promise<Task> {
  const existing = await findErasureTask(db, organizationId, candidateId);
  if (existing?.status === 'failed') return retryErasure(db, taskQueue, organizationId, candidateId);
  if (existing) return toTask(existing);
  const candidates = recruiting.forOrganization(organizationId).candidates;
  const candidate = await candidates.get.query({ id: candidateId }).catch((err: unknown) => {
    // Erased by a request that died before its task was made: its e-mail is gone already.
    if (appErrorFromClientError(err)?.code === 'not_found') return null;
    throw err;
  });
  if (candidate) await redactAtsEventsByEmail(db, organizationId, candidate.email);
  await candidates.erase.mutate({ id: candidateId });
  return ensureErasureTask(db, organizationId, candidateId);
}

/** Inbound ATS events that `which` picks keep their source, id, type and time only. */
async function redactAtsEvents(db: Db, organizationId: string, which: Expression<SqlBool>): Promise<number> {
  const result = await db
    .updateTable('integrations.ats_events')
    .set({ payload: sql<string>`jsonb_build_object('source', payload -> 'source', 'eventId', payload -> 'eventId', 'type', payload -> 'type', 'occurredAt', payload -> 'occurredAt', 'redacted', true)` })
    .where('organization_id', '=', organizationId)
    .where(which)
    .where(sql<boolean>`not coalesce((payload ->> 'redacted')::boolean, false)`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Inbound ATS events that name the person's e-mail, including those that failed before resolving
 * to a candidate (the workflow finds the others by their result). Run by DELETE before recruiting
 * scrubs the e-mail: the workflow takes ids only, so this is the last moment the address is known.
 */
async function redactAtsEventsByEmail(db: Kysely<IntegrationsDB>, organizationId: string, email: string): Promise<number> {
  return redactAtsEvents(db, organizationId, sql<SqlBool>`lower(payload -> 'candidate' ->> 'email') = ${email.toLowerCase()}`);
}

/**
 * Stored task requests that name one of the person's ids keep their ids only, marked
 * `redacted: true`, as the events' payloads do (the task keeps its kind, status and result). An
 * input that holds ids only already (an erasure's own `{candidateId}`) is left as it is.
 */
async function redactTaskInputs(trx: Db, organizationId: string, ids: string[]): Promise<number> {
  const rows = await trx
    .selectFrom('integrations.tasks')
    .select(['id', 'input'])
    .where('organization_id', '=', organizationId)
    .where(mentionsAnyId('input', ids))
    .where(sql<boolean>`not coalesce((input ->> 'redacted')::boolean, false)`)
    .forUpdate()
    .execute();
  let redacted = 0;
  for (const row of rows) {
    const kept = idsOnly(row.input);
    if (isDeepStrictEqual(kept, row.input)) continue;
    await trx.updateTable('integrations.tasks').set({ input: JSON.stringify({ ...(kept && typeof kept === 'object' ? kept : {}), redacted: true }) }).where('id', '=', row.id).execute();
    redacted++;
  }
  return redacted;
}

/**
 * The erasure workflow's integrations step. `ids` are the person's: the candidate's and those of
 * their interviews and enrollments. The stored events that mention one (the events list, replays
 * and pending retries read them) and the outbox rows keep their type and ids only; the response
 * excerpts of their delivery attempts go (a receiver may echo what it got); inbound ATS events
 * that resolved to the candidate lose the candidate's details (those that name the e-mail went at
 * DELETE, redactAtsEventsByEmail); stored task requests that name them keep their ids only.
 *
 * The ids are recorded first as tombstones, in a transaction of their own under the
 * organization's erasure lock, so that events that reach integrations later (a relay that read
 * them before this step) are stored redacted (erasure-tombstones.ts). The scrub follows in a
 * second transaction, without the lock: it sees every event an ingest committed before the
 * tombstones did. Held through the scrub as well, the lock made the organization's other
 * erasures and every ingest wait for the scan of all its events. Running it again (after a crash
 * between the two) changes nothing but what is left to scrub.
 */
export async function scrubErasedPerson(db: Kysely<IntegrationsDB>, organizationId: string, candidateId: string, ids: string[]) {
  await db.transaction().execute(async (trx) => {
    await lockForTombstones(trx, organizationId);
    await recordTombstones(trx, organizationId, candidateId, ids);
  });
  return db.transaction().execute(async (trx) => {
    // One scan of the organization's events: those to redact, and every one that names the person (their excerpts go).
    const { redacted: events, mentioning: eventIds } = await redactEventPayloadsMentioning(trx, SCHEMA, 'events', organizationId, ids);
    const outbox = await redactEventPayloads(trx, SCHEMA, 'outbox', organizationId, ids);
    const excerpts = eventIds.length
      ? Number(
          (await trx.updateTable('integrations.delivery_attempts').set({ response_excerpt: null }).where('organization_id', '=', organizationId).where('event_id', 'in', eventIds).where('response_excerpt', 'is not', null).executeTakeFirst())
            .numUpdatedRows,
        )
      : 0;
    const atsEvents = await redactAtsEvents(trx, organizationId, mentionsAnyId('result', [candidateId]));
    const tasks = await redactTaskInputs(trx, organizationId, ids);
    return { events, outbox, excerpts, atsEvents, tasks };
  });
}

/** The erasure's last step: the attempt's task succeeds, with `candidate.erased` (the id only) and `task.succeeded`, once. */
export function finishCandidateErasure(db: Kysely<IntegrationsDB>, organizationId: string, candidateId: string): Promise<Task> {
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('integrations.tasks')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('candidate_id', '=', candidateId)
      .where(LIVE)
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
