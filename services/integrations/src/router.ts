import { z } from 'zod';
import type { CursorCodec, Kysely, SecretBox } from '@hireloop/platform';
import {
  AtsEventAccepted, AtsEventBody, CreatedWebhook, CreateJobDescriptionBody, CreateWebhookBody, DeliveryAttempt, EventType, JobDescriptionResult,
  ListWebhooksQuery, PageLimit, Cursor, pageOf, Position, Task, TaskId, Webhook, WebhookId,
} from '@hireloop/contracts';
import type { createRecruitingClient } from '@hireloop/recruiting/client';
import type { IntegrationsDB } from './db.js';
import { orgProcedure, router, systemOrgProcedure, systemProcedure } from './trpc.js';
import { createWebhook, deleteWebhook, getWebhookRow, listWebhooks, toWebhook } from './webhooks/webhooks.queries.js';
import { deliveryTarget, ingestEvents, listAttempts, recordAttempt } from './deliveries/deliveries.queries.js';
import type { DeliverySettings } from './deliveries/delivery-start.js';
import { createJobDescriptionTask, finishTask, getTaskRow, markTaskRunning, toTask } from './tasks/tasks.queries.js';
import { acceptAtsEvent, finishAtsEvent } from './ats/ats.queries.js';
import { AppError } from '@hireloop/platform';

export interface IntegrationsDeps {
  db: Kysely<IntegrationsDB>;
  cursors: CursorCodec;
  secrets: SecretBox;
  delivery: DeliverySettings;
  recruiting: ReturnType<typeof createRecruitingClient>;
}

const Published = z.object({ id: z.string(), type: EventType, createdAt: z.string(), data: z.unknown(), organizationId: z.string() });
const Failure = z.object({ code: z.string().max(100), message: z.string().max(2000) });

export function createIntegrationsRouter(deps: IntegrationsDeps) {
  const { db, cursors, secrets, delivery, recruiting } = deps;
  return router({
    webhooks: router({
      create: orgProcedure.input(CreateWebhookBody).output(CreatedWebhook).mutation(({ ctx, input }) => createWebhook(db, secrets, delivery, ctx.org, input)),
      list: orgProcedure.input(ListWebhooksQuery).output(pageOf(Webhook)).query(({ ctx, input }) => listWebhooks(db, cursors, ctx.org, input)),
      get: orgProcedure.input(z.object({ id: WebhookId })).output(Webhook).query(async ({ ctx, input }) => toWebhook(await getWebhookRow(db, ctx.org, input.id))),
      delete: orgProcedure.input(z.object({ id: WebhookId })).output(z.object({ deleted: z.literal(true) })).mutation(async ({ ctx, input }) => {
        await deleteWebhook(db, ctx.org, input.id);
        return { deleted: true as const };
      }),
      /** The delivery log, for the console. */
      attempts: orgProcedure
        .input(z.object({ webhookId: WebhookId, limit: PageLimit, cursor: Cursor.optional() }))
        .output(pageOf(DeliveryAttempt))
        .query(({ ctx, input }) => listAttempts(db, cursors, ctx.org, input)),
    }),
    deliveries: router({
      target: systemOrgProcedure.input(z.object({ webhookId: WebhookId })).query(({ ctx, input }) => deliveryTarget(db, secrets, ctx.org, input.webhookId)),
      record: systemOrgProcedure
        .input(z.object({
          webhookId: WebhookId, eventId: z.string(), eventType: z.string(), attempt: z.number().int().min(1), statusCode: z.number().int().nullable(),
          latencyMs: z.number().int().min(0), responseExcerpt: z.string().nullable(), error: z.string().nullable(),
        }))
        .output(z.object({ disabled: z.boolean() }))
        .mutation(({ ctx, input }) => recordAttempt(db, ctx.org, input)),
    }),
    events: router({
      /** Every service's outbox publisher hands its events here for fan-out to webhooks. */
      ingest: systemProcedure
        .input(z.object({ events: z.array(Published).max(500) }))
        .output(z.object({ queued: z.number().int() }))
        .mutation(async ({ input }) => ({ queued: await ingestEvents(db, delivery, input.events) })),
    }),
    tasks: router({
      createJobDescription: orgProcedure.input(CreateJobDescriptionBody).output(Task).mutation(async ({ ctx, input }) => {
        if (input.positionId) await recruiting.forOrganization(ctx.org).positions.get.query({ id: input.positionId });
        return createJobDescriptionTask(db, delivery.taskQueue, ctx.org, input);
      }),
      get: orgProcedure.input(z.object({ id: TaskId })).output(Task).query(async ({ ctx, input }) => toTask(await getTaskRow(db, ctx.org, input.id))),
      markRunning: systemOrgProcedure.input(z.object({ id: TaskId })).mutation(({ ctx, input }) => markTaskRunning(db, ctx.org, input.id)),
      succeed: systemOrgProcedure
        .input(z.object({ id: TaskId, result: JobDescriptionResult.extend({ model: z.string() }) }))
        .output(Task)
        .mutation(({ ctx, input }) => finishTask(db, ctx.org, input.id, { result: input.result })),
      fail: systemOrgProcedure.input(z.object({ id: TaskId, error: Failure })).output(Task).mutation(({ ctx, input }) => finishTask(db, ctx.org, input.id, { error: input.error })),
      /** Console: write a succeeded job description into the task's position. */
      applyToPosition: orgProcedure.input(z.object({ id: TaskId })).output(Position).mutation(async ({ ctx, input }) => {
        const task = toTask(await getTaskRow(db, ctx.org, input.id));
        if (task.status !== 'succeeded' || !task.result) throw new AppError('conflict', `Task ${task.id} has not succeeded.`);
        if (!task.positionId) throw new AppError('conflict', `Task ${task.id} was not made for a position.`);
        return recruiting.forOrganization(ctx.org).positions.applyJobDescription.mutate({ id: task.positionId, description: task.result.markdown });
      }),
    }),
    ats: router({
      accept: orgProcedure.input(AtsEventBody).output(AtsEventAccepted).mutation(({ ctx, input }) => acceptAtsEvent(db, delivery.taskQueue, ctx.org, input)),
      finish: systemOrgProcedure
        .input(z.object({ id: z.string(), result: z.record(z.string(), z.unknown()).optional(), error: Failure.optional() }))
        .mutation(({ ctx, input }) => finishAtsEvent(db, ctx.org, input.id, input.error ? { error: input.error } : { result: input.result ?? {} })),
    }),
  });
}

export type IntegrationsRouter = ReturnType<typeof createIntegrationsRouter>;
