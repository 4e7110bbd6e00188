import { CreatedWebhook, CreateWebhookBody, envelope, listEnvelope, ListWebhooksQuery, Webhook, WebhookId } from '@hireloop/contracts';
import { z } from 'zod';
import { apiProcedure } from './trpc.js';
import { linkNextPage } from './pagination.js';

const tags = ['Webhooks'];

export const createWebhook = apiProcedure
  .meta({
    scope: 'admin',
    successStatus: 201,
    location: '/webhooks/{id}',
    openapi: {
      method: 'POST', path: '/webhooks', tags, summary: 'Register a webhook', successDescription: 'The webhook, with its `secret` (shown only now)',
      description: 'Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,…`) with the returned `whsec_…` secret; verify them with any Standard Webhooks library. A `webhook.ping` is sent right after registration. The URL must be https and must not resolve to a private, loopback or link-local address. Failed deliveries are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; 410 Gone disables the webhook, as do 5 days of failures.',
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
  .query(async ({ ctx, input }) => {
    const page = await ctx.integrations.webhooks.list.query(input);
    linkNextPage(ctx, page.nextCursor);
    return { data: page.items };
  });

export const getWebhook = apiProcedure
  .meta({ scope: 'read', openapi: { method: 'GET', path: '/webhooks/{id}', tags, summary: 'Webhook detail', errorResponses: [404] } })
  .input(z.object({ id: WebhookId }).strict())
  .output(envelope(Webhook))
  .query(async ({ ctx, input }) => ({ data: await ctx.integrations.webhooks.get.query(input) }));

export const deleteWebhook = apiProcedure
  .meta({ scope: 'admin', successStatus: 204, openapi: { method: 'DELETE', path: '/webhooks/{id}', tags, summary: 'Delete a webhook', successDescription: 'Deleted; deliveries in flight stop', errorResponses: [404] } })
  .input(z.object({ id: WebhookId }).strict())
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await ctx.integrations.webhooks.delete.mutate(input);
  });
