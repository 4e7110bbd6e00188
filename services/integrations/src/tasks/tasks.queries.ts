import { AppError, createOnce, enqueueWorkflowStart, newId, recordAudit, recordEvent, type Kysely } from '@hireloop/platform';
import { CreateJobDescriptionBody, ID_PREFIXES, type JobDescriptionResult, type Task } from '@hireloop/contracts';
import type { Selectable } from 'kysely';
import { SCHEMA, type Db, type IntegrationsDB, type TasksTable } from '../db.js';

export function toTask(row: Selectable<TasksTable>): Task {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    result: row.result as Task['result'],
    error: row.error,
    retrying: null,
    positionId: row.position_id,
    candidateId: row.candidate_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}

export async function getTaskRow(db: Db, organizationId: string, id: string) {
  const row = await db.selectFrom('integrations.tasks').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('not_found', `No task ${id}.`);
  return row;
}

/**
 * POST /ai/job-description: a queued task and its workflow `jd:<taskId>`, in one transaction. A
 * repeat of the Idempotency-Key scope starts nothing again and returns the task (createOnce).
 */
export function createJobDescriptionTask(db: Kysely<IntegrationsDB>, taskQueue: string, organizationId: string, input: CreateJobDescriptionBody, idempotencyScope: string | null): Promise<Task> {
  return db.transaction().execute((trx) =>
    createOnce(trx, SCHEMA, idempotencyScope, () => insertJobDescriptionTask(trx, taskQueue, organizationId, input), async (id) => toTask(await getTaskRow(trx, organizationId, id))));
}

async function insertJobDescriptionTask(trx: Db, taskQueue: string, organizationId: string, input: CreateJobDescriptionBody): Promise<Task> {
  const now = new Date();
  const row = await trx
    .insertInto('integrations.tasks')
    .values({
      id: newId(ID_PREFIXES.task, now.getTime()),
      organization_id: organizationId,
      kind: 'job_description',
      status: 'queued',
      input: JSON.stringify(input),
      position_id: input.positionId ?? null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await enqueueWorkflowStart(trx, SCHEMA, {
    workflowId: `jd:${row.id}`,
    workflowType: 'generateJobDescription',
    // Ids only (CLARIFICATIONS.md): the workflow reads the request from the task row.
    args: [{ taskId: row.id, organizationId }],
    organizationId,
    kind: 'job_description',
    taskQueue,
  });
  await recordAudit(trx, SCHEMA, organizationId, 'task.created', { type: 'task', id: row.id });
  return toTask(row);
}

/**
 * What the job-description workflow asks the AI for: the request kept with the task, read by the
 * worker's activity, so neither it nor the generated text passes through the workflow's history.
 */
export async function jobDescriptionInput(db: Db, organizationId: string, id: string): Promise<CreateJobDescriptionBody> {
  const row = await getTaskRow(db, organizationId, id);
  if (row.kind !== 'job_description') throw new AppError('conflict', `Task ${id} is not a job description.`);
  if ((row.input as { redacted?: unknown }).redacted === true) throw new AppError('conflict', `The request of task ${id} was erased with a person it named.`);
  return CreateJobDescriptionBody.parse(row.input);
}

export async function markTaskRunning(db: Db, organizationId: string, id: string): Promise<void> {
  await db.updateTable('integrations.tasks').set({ status: 'running', updated_at: new Date() }).where('organization_id', '=', organizationId).where('id', '=', id).where('status', '=', 'queued').execute();
}

/** Ends a task once (a retried activity finds it ended) and emits task.succeeded / task.failed. */
export function finishTask(
  db: Kysely<IntegrationsDB>,
  organizationId: string,
  id: string,
  outcome: { result: JobDescriptionResult & { model: string } } | { error: { code: string; message: string } },
): Promise<Task> {
  return db.transaction().execute(async (trx) => {
    const current = await getTaskRow(trx, organizationId, id);
    if (current.status === 'succeeded' || current.status === 'failed') return toTask(current);
    const now = new Date();
    const row = await trx
      .updateTable('integrations.tasks')
      .set(
        'result' in outcome
          ? { status: 'succeeded', result: JSON.stringify(outcome.result), completed_at: now, updated_at: now }
          : { status: 'failed', error: JSON.stringify(outcome.error), completed_at: now, updated_at: now },
      )
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const task = toTask(row);
    await recordEvent(trx, SCHEMA, organizationId, row.status === 'succeeded' ? 'task.succeeded' : 'task.failed', task);
    return task;
  });
}
