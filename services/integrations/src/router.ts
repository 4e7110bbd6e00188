import { z } from 'zod';
import type { Client } from '@temporalio/client';
import { explainingDatabaseRefusal, listAuditRecords, type CursorCodec, type EventInviteUrls, type Kysely, type Lane, type Logger, type SecretBox } from '@hireloop/platform';
import {
  AtsEventAccepted, AtsEventBody, AuditRecord, AuditSliceQuery, CreatedWebhook, CreateJobDescriptionBody, CreateWebhookBody, Delivery, DeliveryAttempt, DeliveryId, EventEnvelope, EventId, EventType,
  JobDescriptionResult, ListDeliveriesQuery, ListEventsQuery, ListWebhooksQuery, PageLimit, Cursor, pageOf, Position, ReplayAccepted, ReplayBody, RotatedSecret, Task, TaskId,
  UpdateWebhookBody, Webhook, WebhookId, CandidateId,
} from '@hireloop/contracts';
import type { createRecruitingClient } from '@hireloop/recruiting/client';
import { SCHEMA, type IntegrationsDB } from './db.js';
import { orgProcedure, router, systemOrgProcedure, systemProcedure } from './trpc.js';
import {
  createWebhook, deleteWebhook, getWebhookRow, listWebhooks, rotateSecret, sendTestPing, updateWebhook, webhookWithStats,
} from './webhooks/webhooks.queries.js';
import { getEvent, listAttempts, listDeliveries, listEvents, purgeExpired, retryDelivery, type RetentionSettings } from './deliveries/deliveries.queries.js';
import { ingestRelayedEvents } from './deliveries/ingest.js';
import type { EndpointRounds } from './deliveries/endpoint-rounds.js';
import type { EndpointLoops } from './deliveries/endpoint-loops.js';
import type { DeliverySettings } from './deliveries/delivery-settings.js';
import { handOverLegacyRetry } from './deliveries/legacy-retries.js';
import { replay } from './webhooks/replay.js';
import { ensureErasureTask, finishCandidateErasure, scrubErasedPerson, startCandidateErasure } from './tasks/erasure.js';
import { erasureRetry } from './tasks/erasure-retry.js';
import { createJobDescriptionTask, finishTask, getTaskRow, jobDescriptionInput, markTaskRunning, toTask } from './tasks/tasks.queries.js';
import { acceptAtsEvent, finishAtsEvent, getAtsEventPayload } from './ats/ats.queries.js';
import { AppError } from '@hireloop/platform';

export interface IntegrationsDeps {
  /** Requests' connections: the API and the workflows' steps. */
  db: Kysely<IntegrationsDB>;
  /** The delivery lane's own connections (fan-out, legacy hand-overs), so that its backlog never holds a request's. */
  deliveryDb: Kysely<IntegrationsDB>;
  cursors: CursorCodec;
  secrets: SecretBox;
  delivery: DeliverySettings;
  /** The task queue of each work lane of this deployment (platform's lanes.ts). */
  lanes: Record<Lane, string>;
  /** Renders the sealed invite URLs of stored events for GET /events. */
  inviteUrls: EventInviteUrls;
  temporal: Client;
  /** The rounds of the endpoints' retry loops (their activities call `deliveries.retryDue`). */
  rounds: EndpointRounds;
  /** Starts, wakes and stops the endpoints' retry loops. */
  loops: EndpointLoops;
  logger: Logger;
  recruiting: ReturnType<typeof createRecruitingClient>;
  retention: RetentionSettings;
}

const Published = z.object({ id: z.string(), type: EventType, createdAt: z.string(), data: z.unknown(), organizationId: z.string() });
const Failure = z.object({ code: z.string().max(100), message: z.string().max(2000) });

export function createIntegrationsRouter(deps: IntegrationsDeps) {
  const { db, deliveryDb, cursors, secrets, delivery, lanes, inviteUrls, temporal, rounds, loops, recruiting, retention } = deps;
  /** After a commit that cancelled an endpoint's deliveries: its retry loop ends now. */
  const stop = (webhookIds: string[]) => loops.terminate(webhookIds);
  const endpoint = z.object({ id: WebhookId });
  return router({
    webhooks: router({
      create: orgProcedure.input(CreateWebhookBody).output(CreatedWebhook).mutation(({ ctx, input }) => createWebhook(db, secrets, delivery, ctx.org, input, ctx.idempotencyScope ?? null)),
      list: orgProcedure.input(ListWebhooksQuery).output(pageOf(Webhook)).query(({ ctx, input }) => listWebhooks(db, delivery, cursors, ctx.org, input)),
      get: orgProcedure.input(endpoint).output(Webhook).query(async ({ ctx, input }) => webhookWithStats(db, delivery, await getWebhookRow(db, ctx.org, input.id))),
      update: orgProcedure.input(endpoint.extend({ changes: UpdateWebhookBody })).output(Webhook).mutation(async ({ ctx, input }) => {
        const { webhook, stopLoops } = await updateWebhook(db, delivery, ctx.org, input.id, input.changes);
        await stop(stopLoops);
        return webhook;
      }),
      delete: orgProcedure.input(endpoint).output(z.object({ deleted: z.literal(true) })).mutation(async ({ ctx, input }) => {
        await stop(await deleteWebhook(db, ctx.org, input.id));
        return { deleted: true as const };
      }),
      rotateSecret: orgProcedure.input(endpoint).output(RotatedSecret).mutation(({ ctx, input }) => rotateSecret(db, secrets, ctx.org, input.id, ctx.idempotencyScope ?? null)),
      test: orgProcedure.input(endpoint).output(z.object({ eventId: EventId })).mutation(({ ctx, input }) => sendTestPing(db, delivery, ctx.org, input.id, ctx.idempotencyScope ?? null)),
      replay: orgProcedure.input(endpoint.extend({ window: ReplayBody })).output(ReplayAccepted).mutation(({ ctx, input }) => replay(db, delivery, ctx.org, input.id, input.window, ctx.idempotencyScope ?? null)),
      deliveries: orgProcedure
        .input(ListDeliveriesQuery.extend({ webhookId: WebhookId }))
        .output(pageOf(Delivery))
        .query(({ ctx, input }) => listDeliveries(db, cursors, ctx.org, input)),
      retryDelivery: orgProcedure
        .input(z.object({ webhookId: WebhookId, deliveryId: DeliveryId }))
        .output(Delivery)
        .mutation(({ ctx, input }) => retryDelivery(db, delivery, ctx.org, input.webhookId, input.deliveryId, ctx.idempotencyScope ?? null)),
      /** The attempt log of an endpoint (the console's view), or of one of its deliveries. */
      attempts: orgProcedure
        .input(z.object({ webhookId: WebhookId, deliveryId: DeliveryId.optional(), limit: PageLimit, cursor: Cursor.optional() }))
        .output(pageOf(DeliveryAttempt))
        .query(({ ctx, input }) => listAttempts(db, cursors, ctx.org, input)),
    }),
    deliveries: router({
      /**
       * A round of an endpoint's retry loop (its activity): the endpoint's id and the activity's
       * task token in; answered at once: `accepted` (attempts under way; the activity is completed
       * with what the loop does next), or that (`again`, `sleep` for some seconds, `ended`).
       */
      retryDue: systemOrgProcedure
        .input(z.object({ webhookId: WebhookId, taskToken: z.base64().max(4096) }))
        .output(z.discriminatedUnion('outcome', [
          z.object({ outcome: z.literal('accepted') }),
          z.object({ outcome: z.literal('again') }),
          z.object({ outcome: z.literal('ended') }),
          z.object({ outcome: z.literal('sleep'), seconds: z.number().min(0) }),
        ]))
        .mutation(({ ctx, input }) => rounds.take(ctx.org, input)),
      /**
       * A per-delivery retry workflow from before the endpoints' loops asks for its next attempt
       * (same input as then): its delivery is handed to its endpoint's loop; answered `stopped`.
       */
      attempt: systemOrgProcedure
        .input(z.object({ deliveryId: DeliveryId, generation: z.number().int().min(0), waitSeconds: z.number().min(0).nullable(), taskToken: z.base64().max(4096) }))
        .output(z.object({ outcome: z.enum(['accepted', 'busy', 'full', 'stopped']) }))
        .mutation(({ ctx, input }) => handOverLegacyRetry(deliveryDb, delivery, ctx.org, input.deliveryId)),
      /** The retention purge, run by the `purge-webhook-events` Temporal schedule. */
      purge: systemProcedure
        .output(z.object({ events: z.number().int(), attempts: z.number().int(), atsEvents: z.number().int(), outbox: z.number().int(), workflowOutbox: z.number().int(), idempotency: z.number().int(), auditEvents: z.number().int(), erasedIds: z.number().int() }))
        .mutation(() => purgeExpired(db, retention)),
    }),
    events: router({
      /** Every service's outbox publisher hands its events here for fan-out to webhooks (an erased person's, redacted). */
      ingest: systemProcedure
        .input(z.object({ events: z.array(Published).max(500) }))
        .output(z.object({ queued: z.number().int() }))
        .mutation(async ({ input }) => ({ queued: await ingestRelayedEvents(deliveryDb, delivery, input.events) })),
      list: orgProcedure.input(ListEventsQuery).output(pageOf(EventEnvelope)).query(({ ctx, input }) => listEvents(db, cursors, inviteUrls, ctx.org, input)),
      get: orgProcedure.input(z.object({ id: EventId })).output(EventEnvelope).query(({ ctx, input }) => getEvent(db, inviteUrls, ctx.org, input.id)),
    }),
    tasks: router({
      createJobDescription: orgProcedure.input(CreateJobDescriptionBody).output(Task).mutation(async ({ ctx, input }) => {
        if (input.positionId) await recruiting.forOrganization(ctx.org).positions.get.query({ id: input.positionId });
        return createJobDescriptionTask(db, lanes.ai, ctx.org, input, ctx.idempotencyScope ?? null);
      }),
      /** A task; an erasure that is retrying a step says which and why (erasure-retry.ts). */
      get: orgProcedure.input(z.object({ id: TaskId })).output(Task).query(async ({ ctx, input }) => {
        const task = toTask(await getTaskRow(db, ctx.org, input.id));
        return { ...task, retrying: await erasureRetry(db, temporal, ctx.org, task) };
      }),
      /** The worker's job-description activity: the request kept with the task. */
      jobDescriptionInput: systemOrgProcedure
        .input(z.object({ id: TaskId }))
        .output(CreateJobDescriptionBody)
        .query(({ ctx, input }) => jobDescriptionInput(db, ctx.org, input.id)),
      markRunning: systemOrgProcedure.input(z.object({ id: TaskId })).mutation(({ ctx, input }) => markTaskRunning(db, ctx.org, input.id)),
      succeed: systemOrgProcedure
        .input(z.object({ id: TaskId, result: JobDescriptionResult.extend({ model: z.string() }) }))
        .output(Task)
        .mutation(({ ctx, input }) => finishTask(db, ctx.org, input.id, { result: input.result })),
      fail: systemOrgProcedure.input(z.object({ id: TaskId, error: Failure })).output(Task).mutation(({ ctx, input }) => finishTask(db, ctx.org, input.id, { error: input.error })),
      /** Console: write a succeeded job description into the task's position. */
      applyToPosition: orgProcedure.input(z.object({ id: TaskId })).output(Position).mutation(async ({ ctx, input }) => {
        const task = toTask(await getTaskRow(db, ctx.org, input.id));
        if (task.status !== 'succeeded' || !task.result || !('markdown' in task.result)) throw new AppError('conflict', `Task ${task.id} has not succeeded.`);
        if (!task.positionId) throw new AppError('conflict', `Task ${task.id} was not made for a position.`);
        return recruiting.forOrganization(ctx.org).positions.applyJobDescription.mutate({ id: task.positionId, description: task.result.markdown });
      }),
    }),
    /** This service's slice of the audit trail; identity merges the slices into GET /audit-events. */
    audit: router({
      list: systemOrgProcedure.input(AuditSliceQuery).output(z.array(AuditRecord)).query(({ ctx, input }) => listAuditRecords(db, SCHEMA, ctx.org, input)),
    }),
    erasure: router({
      /** DELETE /candidates/{id}: the candidate is 404 from now on; the answer is its `candidate_erasure` task. */
      start: orgProcedure.input(z.object({ candidateId: CandidateId })).output(Task).mutation(({ ctx, input }) => startCandidateErasure(db, recruiting, lanes.erasure, ctx.org, input.candidateId)),
      /** The workflow's steps (ids in, ids and counts out: they sit in its history). */
      begin: systemOrgProcedure
        .input(z.object({ candidateId: CandidateId }))
        .output(z.object({ taskId: TaskId }))
        .mutation(async ({ ctx, input }) => {
          const task = await ensureErasureTask(db, ctx.org, input.candidateId);
          await markTaskRunning(db, ctx.org, task.id);
          return { taskId: task.id };
        }),
      scrub: systemOrgProcedure
        .input(z.object({ candidateId: CandidateId, relatedIds: z.array(z.string().max(100)).max(10_000) }))
        .output(z.object({ events: z.number().int(), outbox: z.number().int(), excerpts: z.number().int(), atsEvents: z.number().int(), tasks: z.number().int() }))
        .mutation(({ ctx, input }) => explainingDatabaseRefusal("Integrations' erasure step", () => scrubErasedPerson(db, ctx.org, input.candidateId, [input.candidateId, ...input.relatedIds]))),
      finish: systemOrgProcedure
        .input(z.object({ candidateId: CandidateId }))
        .output(z.object({ taskId: TaskId }))
        .mutation(async ({ ctx, input }) => ({ taskId: (await finishCandidateErasure(db, ctx.org, input.candidateId)).id })),
    }),
    ats: router({
      accept: orgProcedure.input(AtsEventBody).output(AtsEventAccepted).mutation(({ ctx, input }) => acceptAtsEvent(db, lanes.ats, ctx.org, input, ctx.idempotencyScope ?? null)),
      /** The workflow's activity reads the payload here: workflow inputs carry ids only. */
      payload: systemOrgProcedure.input(z.object({ id: z.string().max(100) })).output(AtsEventBody).query(({ ctx, input }) => getAtsEventPayload(db, ctx.org, input.id)),
      finish: systemOrgProcedure
        .input(z.object({ id: z.string(), result: z.record(z.string(), z.unknown()).optional(), error: Failure.optional() }))
        .mutation(({ ctx, input }) => finishAtsEvent(db, ctx.org, input.id, input.error ? { error: input.error } : { result: input.result ?? {} })),
    }),
  });
}

export type IntegrationsRouter = ReturnType<typeof createIntegrationsRouter>;
