import { z } from 'zod';
import { ID_PREFIXES, Instant, prefixedId, text, Timestamp, wellFormed } from './common.js';
import { EventType } from './events.js';
import { Failure, ListQuery, ModelName, PositionId } from './recruiting.js';

export const WebhookId = prefixedId(ID_PREFIXES.webhook);
export const TaskId = prefixedId(ID_PREFIXES.task);

/** Event types a webhook can subscribe to: every type but the ping, which every webhook gets. */
export const SubscribableEvent = z.enum(EventType.options.filter((t) => t !== 'webhook.ping') as [string, ...string[]]);

const WebhookEvent = z.union([z.literal('*'), SubscribableEvent]);
const WEBHOOK_EVENTS_MAX = 50;
export const WebhookEvents = z
  .array(WebhookEvent)
  .min(1, 'subscribe to at least one event type, or ["*"]')
  .max(WEBHOOK_EVENTS_MAX)
  .refine((e) => new Set(e).size === e.length, 'event types must not repeat')
  .refine((e) => !e.includes('*') || e.length === 1, '"*" stands alone')
  .describe(`Event types to receive, or ["*"] for all: ${SubscribableEvent.options.join(', ')}`);

const WebhookUrl = wellFormed(z.url({ protocol: /^https?$/ }).max(2048));
const WebhookDescription = text().trim().max(500);

export const Webhook = z
  .object({
    id: WebhookId,
    url: WebhookUrl,
    events: z.array(z.string().max(100)).max(WEBHOOK_EVENTS_MAX).describe('The event types it receives, or ["*"]'),
    description: WebhookDescription.nullable(),
    status: z.enum(['enabled', 'disabled']),
    disabledReason: z.string().max(500).nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof Webhook>;

export const CreatedWebhook = Webhook.extend({
  secret: z.string().max(100).regex(/^whsec_[A-Za-z0-9+/=]+$/).describe('`whsec_…`: verifies our signatures. Shown only in this response.'),
}).meta({ id: 'CreatedWebhook' });
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

export const CreateWebhookBody = z
  .object({
    url: WebhookUrl.describe('https URL (http only for loopback when the dev flag is on)'),
    events: WebhookEvents,
    description: WebhookDescription.optional(),
  })
  .strict()
  .meta({ id: 'CreateWebhookBody' });
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const ListWebhooksQuery = ListQuery.extend({}).strict();

export const DeliveryAttempt = z.object({
  id: z.string(),
  webhookId: WebhookId,
  eventId: z.string(),
  eventType: z.string(),
  attempt: z.number().int(),
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int(),
  responseExcerpt: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: Timestamp,
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const TaskStatus = z.enum(['queued', 'running', 'succeeded', 'failed']);

export const JobDescriptionResult = z.object({
  title: z.string().min(1).max(200),
  summary: z.string().min(1).max(5000),
  responsibilities: z.array(z.string().max(1000)).min(1).max(30),
  requirements: z.array(z.string().max(1000)).min(1).max(30),
  niceToHave: z.array(z.string().max(1000)).max(30),
  markdown: z.string().min(1).max(20_000),
});
export type JobDescriptionResult = z.infer<typeof JobDescriptionResult>;

export const Task = z
  .object({
    id: TaskId,
    kind: z.literal('job_description'),
    status: TaskStatus,
    result: JobDescriptionResult.extend({ model: ModelName }).nullable(),
    error: Failure.nullable(),
    positionId: PositionId.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    completedAt: Timestamp.nullable(),
  })
  .meta({ id: 'Task' });
export type Task = z.infer<typeof Task>;

export const CreateJobDescriptionBody = z
  .object({
    title: text().trim().min(1).max(200),
    positionId: PositionId.optional(),
    seniority: text().trim().min(1).max(100).optional(),
    location: text().trim().min(1).max(200).optional(),
    skills: z.array(text().trim().min(1).max(100)).max(30).optional(),
    tone: z.enum(['neutral', 'friendly', 'formal']).default('neutral'),
    language: text().max(35).regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, 'a BCP 47 language tag such as en or de-CH').default('en'),
  })
  .strict()
  .meta({ id: 'CreateJobDescriptionBody' });
export type CreateJobDescriptionBody = z.infer<typeof CreateJobDescriptionBody>;

export const AtsEventType = z.enum([
  'candidate.created',
  'candidate.updated',
  'application.created',
  'application.stage_changed',
  'application.rejected',
  'application.hired',
]);
export type AtsEventType = z.infer<typeof AtsEventType>;

const ExternalRef = text().trim().min(1).max(200);

export const AtsEventBody = z
  .object({
    source: text().trim().max(50).regex(/^[a-z0-9_-]{1,50}$/, 'lowercase letters, digits, - and _ (e.g. greenhouse, lever)'),
    eventId: ExternalRef.describe('The ATS\'s own id of this event; a repeat is recognised and changes nothing'),
    type: AtsEventType,
    occurredAt: Instant,
    candidate: z.object({ externalId: ExternalRef, email: z.email().max(254).optional(), name: text().trim().min(1).max(200).optional() }).strict(),
    job: z.object({ externalId: ExternalRef, title: text().trim().min(1).max(200).optional() }).strict().optional(),
    application: z.object({ externalId: ExternalRef, stage: text().trim().min(1).max(200).optional() }).strict().optional(),
  })
  .strict()
  .meta({ id: 'AtsEventBody' });
export type AtsEventBody = z.infer<typeof AtsEventBody>;

export const AtsEventAccepted = z
  .object({ id: prefixedId(ID_PREFIXES.atsEvent), status: z.enum(['accepted', 'duplicate']) })
  .meta({ id: 'AtsEventAccepted' });
