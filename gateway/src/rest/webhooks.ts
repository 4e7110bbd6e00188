import {
  atLeastOneChange, CreatedWebhook, CreateWebhookBody, Delivery, DeliveryAttempt, DeliveryId, envelope, EventId, listEnvelope, ListDeliveriesQuery, ListQuery, ListWebhooksQuery, ReplayAccepted, ReplayFields,
  RotatedSecret, untilAfterSince, UpdateWebhookFields, Webhook, WebhookId,
} from '@hireloop/contracts';
import { z } from 'zod';
import { apiProcedure } from './trpc.js';
import { listPage } from './pagination.js';

const tags = ['Webhooks'];

export const createWebhook = apiProcedure
  .meta({
    scope: 'admin',
    successStatus: 201,
    location: '/webhooks/{id}',
    openapi: {
      method: 'POST', path: '/webhooks', tags, summary: 'Register a webhook', successDescription: 'The webhook, with its `secret` (shown only now)',
      description: 'Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,…`) with the returned `whsec_…` secret; verify them with any Standard Webhooks library. A `webhook.ping` is sent right after registration. The URL must be https and must not resolve to a private, loopback or link-local address. Delivery is at least once, with the same `webhook-id` (the event id) on every attempt: a 2xx within 15 s is success; failed deliveries are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (`Retry-After` on 429/503 is honoured); 410 Gone disables the webhook, as do 5 days of failures.',
    },
  })
  .input(CreateWebhookBody)
  .output(envelope(CreatedWebhook))
  .mutation(async ({ ctx, input }) => {
    const webhook = await ctx.integrations.webhooks.create.mutate(input);
    return { data: webhook };
  });

export const listWebhooks = apiProcedure
  .meta({ scope: 'read', openapi: { method: 'GET', path: '/webhooks', tags, summary: 'List webhooks', description: 'Newest first; never includes secrets. The next page is in `Link: rel="next"`.' } })
  .input(ListWebhooksQuery)
  .output(listEnvelope(Webhook))
  .query(async ({ ctx, input }) => listPage(ctx, await ctx.integrations.webhooks.list.query(input)));

export const getWebhook = apiProcedure
  .meta({ scope: 'read', openapi: { method: 'GET', path: '/webhooks/{id}', tags, summary: 'Webhook detail', errorResponses: [404] } })
  .input(z.object({ id: WebhookId }).strict())
  .output(envelope(Webhook))
  .query(async ({ ctx, input }) => ({ data: await ctx.integrations.webhooks.get.query(input) }));

export const deleteWebhook = apiProcedure
  .meta({ scope: 'admin', successStatus: 204, openapi: { method: 'DELETE', path: '/webhooks/{id}', tags, summary: 'Delete a webhook', successDescription: 'Deleted; its pending deliveries end `cancelled` and their retries stop', errorResponses: [404] } })
  .input(z.object({ id: WebhookId }).strict())
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await ctx.integrations.webhooks.delete.mutate(input);
  });

const endpoint = z.object({ id: WebhookId });

export const updateWebhook = apiProcedure
  .meta({
    scope: 'admin',
    openapi: {
      method: 'PATCH', path: '/webhooks/{id}', tags, summary: 'Update a webhook', errorResponses: [404],
      description: 'Changes any of `url`, `events`, `description` (`null` removes it), `status`; a body with none of them is 422. The next event is filtered by the new `events`. Disabling cancels the pending deliveries and stops their retries; re-enabling clears the failure run and `disabledReason`.',
    },
    atLeastOneOf: ['url', 'events', 'description', 'status'],
  })
  .input(UpdateWebhookFields.extend({ id: WebhookId }).strict().refine(atLeastOneChange, 'give at least one of url, events, description, status'))
  .output(envelope(Webhook))
  .mutation(async ({ ctx, input }) => {
    const { id, ...changes } = input;
    return { data: await ctx.integrations.webhooks.update.mutate({ id, changes }) };
  });

export const rotateWebhookSecret = apiProcedure
  .meta({
    scope: 'admin',
    openapi: {
      method: 'POST', path: '/webhooks/{id}/rotate-secret', tags, summary: 'Rotate the signing secret', successDescription: 'The new secret (shown only now)', errorResponses: [404],
      description: 'For the next 24 h every delivery carries two signatures, `webhook-signature: v1,<new> v1,<old>`, as Standard Webhooks allows: a receiver holding either secret verifies. Rotating again within the overlap drops the oldest secret.',
    },
  })
  .input(endpoint.strict())
  .output(envelope(RotatedSecret))
  .mutation(async ({ ctx, input }) => ({ data: await ctx.integrations.webhooks.rotateSecret.mutate(input) }));

export const testWebhook = apiProcedure
  .meta({
    scope: 'admin',
    successStatus: 202,
    openapi: { method: 'POST', path: '/webhooks/{id}/test', tags, summary: 'Send a test event', successDescription: 'A `webhook.ping` is on its way to this endpoint', errorResponses: [404, 409] },
  })
  .input(endpoint.strict())
  .output(envelope(z.object({ eventId: EventId })))
  .mutation(async ({ ctx, input }) => ({ data: await ctx.integrations.webhooks.test.mutate(input) }));

export const listWebhookDeliveries = apiProcedure
  .meta({
    scope: 'read',
    openapi: {
      method: 'GET', path: '/webhooks/{id}/deliveries', tags, summary: 'List deliveries (the delivery log)', errorResponses: [404],
      description: 'One item per (event, endpoint), newest first: `pending` (first attempt due) → `delivered`, or `retrying` (on the retry schedule) → `delivered` / `failed`; `cancelled` when the endpoint was deleted or disabled. The next page is in `Link: rel="next"`.',
    },
  })
  .input(ListDeliveriesQuery.extend({ id: WebhookId }).strict())
  .output(listEnvelope(Delivery))
  .query(async ({ ctx, input }) => {
    const { id, ...query } = input;
    return listPage(ctx, await ctx.integrations.webhooks.deliveries.query({ ...query, webhookId: id }));
  });

export const listDeliveryAttempts = apiProcedure
  .meta({
    scope: 'read',
    openapi: { method: 'GET', path: '/webhooks/{id}/deliveries/{deliveryId}/attempts', tags, summary: 'Attempts of a delivery', description: 'Newest first, each with the status, latency and the first 1 KiB of the response.', errorResponses: [404] },
  })
  .input(ListQuery.extend({ id: WebhookId, deliveryId: DeliveryId }).strict())
  .output(listEnvelope(DeliveryAttempt))
  .query(async ({ ctx, input }) => {
    const { id, ...query } = input;
    return listPage(ctx, await ctx.integrations.webhooks.attempts.query({ ...query, webhookId: id }));
  });

export const retryWebhookDelivery = apiProcedure
  .meta({
    scope: 'admin',
    successStatus: 202,
    openapi: {
      method: 'POST', path: '/webhooks/{id}/deliveries/{deliveryId}/retry', tags, summary: 'Retry a delivery now', errorResponses: [404, 409],
      successDescription: 'The delivery, queued for one attempt now',
      description: 'One attempt now, outside the schedule, with the same `webhook-id` (a retry of a delivery whose attempt is under way, or `pending` and not yet claimed, adds none: retries sent at once do not make one attempt each). Should it fail, the delivery follows the retry schedule again from the start. While the endpoint is failing (`stats.failingSince`), the delivery goes to the head of its retry queue instead: the answer is `retrying`, with `nextAttemptAt` at the endpoint\'s next probe.',
    },
  })
  .input(z.object({ id: WebhookId, deliveryId: DeliveryId }).strict())
  .output(envelope(Delivery))
  .mutation(async ({ ctx, input }) => ({ data: await ctx.integrations.webhooks.retryDelivery.mutate({ webhookId: input.id, deliveryId: input.deliveryId }) }));

export const replayWebhook = apiProcedure
  .meta({
    scope: 'admin',
    successStatus: 202,
    openapi: {
      method: 'POST', path: '/webhooks/{id}/replay', tags, summary: 'Replay a time window', errorResponses: [404, 409],
      successDescription: 'How many deliveries were queued',
      description: 'Every retained event (30 days) created in [`since`, `until`) of the types this endpoint subscribes to (narrowed by `types`) is delivered to it again, with its original `webhook-id`, so receivers can dedupe. Pings are not replayed. `until`, when given, must be after `since`, else 422 on `until`.',
    },
  })
  .input(ReplayFields.extend({ id: WebhookId }).strict().refine(untilAfterSince, { message: 'until must be after since', path: ['until'] }))
  .output(envelope(ReplayAccepted))
  .mutation(async ({ ctx, input }) => {
    const { id, ...window } = input;
    return { data: await ctx.integrations.webhooks.replay.mutate({ id, window }) };
  });
