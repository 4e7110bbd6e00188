import { z } from 'zod';
import { ID_PREFIXES, Instant, int32, prefixedId, text, Timestamp, trimmedText, wellFormed } from './common.js';
import { EmailAddress } from './email.js';
import { visibleName } from './visible-text.js';
import { EventType } from './events.js';
import { CandidateId, Failure, ListQuery, ModelName, PositionId } from './recruiting.js';

export const WebhookId = prefixedId(ID_PREFIXES.webhook);
export const TaskId = prefixedId(ID_PREFIXES.task);

/** Event types a webhook can subscribe to: every type but the ping, which every webhook gets. */
export const SubscribableEvent = z.enum(EventType.options.filter((t) => t !== 'webhook.ping') as [string, ...string[]]);

const WebhookEvent = z.union([z.literal('*'), SubscribableEvent], {
  // Zod's own message for a union is "Invalid input": say what is accepted (the ping is every webhook's, never subscribed to).
  error: () => `not an event type a webhook subscribes to: "*" or one of ${SubscribableEvent.options.join(', ')} (every webhook gets webhook.ping)`,
});
const WEBHOOK_EVENTS_MAX = 50;
export const WebhookEvents = z
  .array(WebhookEvent)
  .min(1, 'subscribe to at least one event type, or ["*"]')
  .max(WEBHOOK_EVENTS_MAX)
  .refine((e) => new Set(e).size === e.length, 'event types must not repeat')
  .refine((e) => !e.includes('*') || e.length === 1, '"*" stands alone')
  // The two rules above, as the document can state them (describing a rule is not narrowing it).
  .meta({ uniqueItems: true, anyOf: [{ const: ['*'] }, { items: { not: { const: '*' } } }] })
  .describe(`Event types to receive, or ["*"] for all: ${SubscribableEvent.options.join(', ')}`);

const WEBHOOK_URL_MAX = 2048;
/** A webhook URL as stored and returned (rows from before WebhookUrlInput's rules included). */
const WebhookUrl = wellFormed(z.url({ protocol: /^https?$/ }).max(WEBHOOK_URL_MAX));

// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001F\u007F]*$/;

/**
 * Why a webhook URL a client sends can never be delivered to, or null (issue 18 item 8): not an
 * http(s) URL, or port 0. Control characters are refused by a pattern before this: the URL
 * parser would silently drop a tab or a line break and hide the client's mistake.
 */
export function undeliverableWebhookUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return 'must be a valid URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
  if (url.port === '0') return 'port 0 cannot be connected to';
  return null;
}

/**
 * A webhook URL in a create or PATCH body: surrounding spaces are trimmed and the URL is stored as
 * the URL parser writes it, as before; control characters anywhere and port 0 are 422.
 */
// Well-formed first: the URL parser writes a lone surrogate as U+FFFD, so checked after the
// rewrite it would be stored changed without a word, where every other string is 422.
const WebhookUrlInput = wellFormed(z.string().max(WEBHOOK_URL_MAX))
  .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters (tab, line breaks)')
  .superRefine((raw, ctx) => {
    const why = undeliverableWebhookUrl(raw);
    if (why) return void ctx.addIssue({ code: 'custom', message: why, input: raw });
    // Stored as the URL parser writes it (non-ASCII percent-encoded, hosts in punycode), which
    // must fit the limit too: refused here, by the field's name, not later by the service.
    if (new URL(raw.trim()).href.length > WEBHOOK_URL_MAX) {
      ctx.addIssue({ code: 'custom', message: `is longer than ${WEBHOOK_URL_MAX} characters once written as a URL (non-ASCII characters percent-encoded)`, input: raw });
    }
  })
  .overwrite((raw) => (undeliverableWebhookUrl(raw) ? raw : new URL(raw.trim()).href))
  .meta({ format: 'uri' });
const WebhookDescription = text().trim().max(500);

export const DeliveryId = prefixedId(ID_PREFIXES.delivery);
export const EventId = prefixedId(ID_PREFIXES.event);
const COUNT_MAX = 2_000_000_000;

export const WebhookStats = z
  .object({
    pending: int32(0, COUNT_MAX).describe('Deliveries waiting for their first attempt'),
    retrying: int32(0, COUNT_MAX).describe('Deliveries in the endpoint\'s retry queue: their last attempt failed, or, while the endpoint is failing, they joined it without a first attempt'),
    oldestDueAt: Timestamp.nullable().describe('When the longest-waiting pending or retrying delivery was due'),
    successRate24h: z.number().min(0).max(1).nullable().describe('Share of attempts in the last 24 h answered 2xx; null without attempts. Deliveries dropped from the queue without an attempt (the backlog limit, a schedule that ended while failing) are not attempts'),
    failingSince: Timestamp.optional().describe(
      'Present only while the endpoint is failing (its circuit breaker is open after WEBHOOK_BREAKER_FAILURES consecutive failed attempts, 5 by default): when that run of failures began. Its new deliveries then join its retry queue, which is probed one due delivery at a time; the first success ends it',
    ),
  })
  .meta({ id: 'WebhookStats' });
export type WebhookStats = z.infer<typeof WebhookStats>;

export const Webhook = z
  .object({
    id: WebhookId,
    url: WebhookUrl,
    events: z.array(z.string().max(100)).max(WEBHOOK_EVENTS_MAX).describe('The event types it receives, or ["*"]'),
    description: WebhookDescription.nullable(),
    status: z.enum(['enabled', 'disabled']),
    disabledReason: z.string().max(500).nullable(),
    stats: WebhookStats.describe('The endpoint\'s backlog and health'),
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
    url: WebhookUrlInput.describe('https URL (http only for loopback when the dev flag is on)'),
    events: WebhookEvents,
    description: WebhookDescription.optional(),
  })
  .strict()
  .meta({ id: 'CreateWebhookBody' });
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

/** PATCH /webhooks/{id}'s fields (the route adds the path's id and the "at least one" rule). */
export const UpdateWebhookFields = z
  .object({
    url: WebhookUrlInput.optional().describe('https URL (http only for loopback when the dev flag is on)'),
    events: WebhookEvents.optional(),
    description: WebhookDescription.nullable().optional().describe('null removes it'),
    status: z.enum(['enabled', 'disabled']).optional().describe('Re-enabling clears the failure run and `disabledReason`; disabling cancels pending deliveries'),
  })
  .strict();
export const atLeastOneChange = (b: Record<string, unknown>) => Object.keys(b).some((k) => k !== 'id' && b[k] !== undefined);
export const UpdateWebhookBody = UpdateWebhookFields.refine(atLeastOneChange, 'give at least one of url, events, description, status').meta({ id: 'UpdateWebhookBody' });
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const RotatedSecret = z
  .object({ secret: z.string().max(100).regex(/^whsec_[A-Za-z0-9+/=]+$/).describe('The new `whsec_…` secret, shown only now. For 24 h deliveries carry a signature with each, new and old.') })
  .meta({ id: 'RotatedSecret' });

export const ListWebhooksQuery = ListQuery.extend({}).strict();

export const DeliveryStatus = z.enum(['pending', 'delivered', 'retrying', 'failed', 'cancelled']);
const EventTypeName = z.string().max(100);
const HttpStatus = int32(0, 999);
const LatencyMs = int32(0, 3_600_000);
/** What an attempt's failure was, in our words (never a library's message). */
const AttemptError = z.string().max(1024);

export const Delivery = z
  .object({
    id: DeliveryId,
    webhookId: WebhookId,
    eventId: EventId,
    eventType: EventTypeName,
    status: DeliveryStatus,
    attempts: int32(0, COUNT_MAX).describe('Attempts made (each is an entry of its attempt log)'),
    nextAttemptAt: Timestamp.nullable(),
    lastAttempt: z.object({ statusCode: HttpStatus.nullable(), error: AttemptError.nullable(), latencyMs: LatencyMs, at: Timestamp }).nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'Delivery' });
export type Delivery = z.infer<typeof Delivery>;

export const ListDeliveriesQuery = ListQuery.extend({
  status: DeliveryStatus.optional(),
  eventType: EventType.optional(),
}).strict();
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;

export const ReplayFields = z
  .object({
    since: Instant.describe('Replay events created at or after this instant (events are kept 30 days)'),
    until: Instant.optional().describe('…and before this one (default: now)'),
    types: z.array(SubscribableEvent).min(1).max(WEBHOOK_EVENTS_MAX).optional().describe('Only these event types (within those the endpoint subscribes to)'),
  })
  .strict();
export const untilAfterSince = (b: { since: string; until?: string | undefined }) => !b.until || Date.parse(b.until) > Date.parse(b.since);
export const ReplayBody = ReplayFields.refine(untilAfterSince, { message: 'until must be after since', path: ['until'] }).meta({ id: 'ReplayBody' });
export type ReplayBody = z.infer<typeof ReplayBody>;

export const ReplayAccepted = z
  .object({
    count: int32(0, COUNT_MAX).describe('Deliveries queued: the retained events of the window, counted when asked; they are queued in the background within seconds'),
    failing: z.boolean().describe('The endpoint is failing: the deliveries joined the head of its retry queue and go once a probe succeeds'),
  })
  .meta({ id: 'ReplayAccepted' });
export type ReplayAccepted = z.infer<typeof ReplayAccepted>;

export const EventEnvelope = z
  .object({
    id: EventId,
    type: EventTypeName,
    createdAt: Timestamp,
    data: z.record(z.string().max(100), z.unknown()).describe('A snapshot of the resource when the event happened'),
  })
  .meta({ id: 'Event' });
export type EventEnvelope = z.infer<typeof EventEnvelope>;

export const ListEventsQuery = ListQuery.extend({
  type: EventType.optional(),
  createdAfter: Instant.optional(),
  createdBefore: Instant.optional(),
}).strict();
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;

export const DeliveryAttempt = z.object({
  id: z.string().max(40),
  deliveryId: DeliveryId.nullable(),
  webhookId: WebhookId,
  eventId: EventId,
  eventType: EventTypeName,
  attempt: int32(1, COUNT_MAX).describe('This entry\'s number in the delivery\'s log, 1, 2, …, no two alike: an attempt made, or one that was not (no status, and `error` says why)'),
  statusCode: HttpStatus.nullable(),
  latencyMs: LatencyMs,
  responseExcerpt: z.string().max(1024).nullable(),
  error: AttemptError.nullable(),
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

export const TaskKind = z.enum(['job_description', 'candidate_erasure']);
export type TaskKind = z.infer<typeof TaskKind>;

/** A succeeded `candidate_erasure`: every copy of the person's data is scrubbed (PRODUCT.md §7). */
export const CandidateErasureResult = z
  .object({ candidateId: CandidateId, erasedAt: Timestamp })
  .meta({ id: 'CandidateErasureResult' });
export type CandidateErasureResult = z.infer<typeof CandidateErasureResult>;

/** A step of a task that failed and is being retried (PRODUCT.md §7: an erasure must happen, so it is retried until it can). */
export const TaskRetry = z
  .object({
    step: z.string().max(100).describe('The step being retried; for a `candidate_erasure`: start, recruiting, integrations, gateway or finish'),
    attempt: int32(2, 2_000_000_000).describe('The attempt under way or waiting to run (2 after the first failure)'),
    lastError: Failure.describe('Why the last attempt failed'),
  })
  .meta({ id: 'TaskRetry' });
export type TaskRetry = z.infer<typeof TaskRetry>;

export const Task = z
  .object({
    id: TaskId,
    kind: TaskKind,
    status: TaskStatus,
    result: z.union([JobDescriptionResult.extend({ model: ModelName }), CandidateErasureResult]).nullable(),
    error: Failure.nullable(),
    retrying: TaskRetry.nullable().describe('Set while a step of a `queued` or `running` `candidate_erasure` failed and is retried (the task goes on once it succeeds); null otherwise, and always for a `job_description` (its AI call is retried within its deadline, then the task fails)'),
    positionId: PositionId.nullable().describe('The position a `job_description` was made for'),
    candidateId: CandidateId.nullable().describe('The candidate a `candidate_erasure` erases'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    completedAt: Timestamp.nullable(),
  })
  .meta({ id: 'Task' });
export type Task = z.infer<typeof Task>;

export const CreateJobDescriptionBody = z
  .object({
    title: visibleName(200),
    positionId: PositionId.optional(),
    seniority: trimmedText(100).optional(),
    location: visibleName(200).optional(),
    skills: z.array(trimmedText(100)).max(30).optional(),
    tone: z.enum(['neutral', 'friendly', 'formal']).default('neutral'),
    language: text()
      .max(35)
      .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, 'a BCP 47 language tag such as en or de-CH')
      .default('en')
      .describe('The language to write in, as a BCP 47 tag (en, de-CH, pt-BR); the AI is asked to write in it, the offline draft is English'),
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

const ExternalRef = trimmedText(200);

/** An ATS event's time: not before 2000, and not more than a day ahead of our clock. */
function isPlausibleOccurrence(instant: string): boolean {
  const at = Date.parse(instant);
  return at >= Date.UTC(2000, 0, 1) && at <= Date.now() + 86_400_000;
}

export const AtsEventBody = z
  .object({
    source: text()
      .trim()
      .max(50)
      .regex(/^[a-z0-9_-]{1,50}$/, 'lowercase letters, digits, - and _ (e.g. greenhouse, lever)')
      .refine((source) => source !== 'api', '`api` is the source of records made through this API; name the ATS (e.g. greenhouse)')
      .describe('The ATS that sent the event (greenhouse, lever, …): external ids are matched per source. Not `api`, the source of the records made through this API'),
    eventId: ExternalRef.describe('The ATS\'s own id of this event; a repeat is recognised and changes nothing'),
    type: AtsEventType,
    occurredAt: Instant.refine(isPlausibleOccurrence, 'a time from 2000 to at most a day from now: events apply in occurredAt order, so a far-future time would hide every later event').describe(
      'When it happened in the ATS: events about one candidate or application apply in this order (docs/api.md). From 2000 to at most 24 h after now (clock skew), else 422',
    ),
    candidate: z.object({ externalId: ExternalRef, email: EmailAddress.optional(), name: visibleName(200).optional() }).strict(),
    job: z.object({ externalId: ExternalRef, title: visibleName(200).optional() }).strict().optional(),
    application: z.object({ externalId: ExternalRef, stage: trimmedText(200).optional() }).strict().optional(),
  })
  .strict()
  .meta({ id: 'AtsEventBody' });
export type AtsEventBody = z.infer<typeof AtsEventBody>;

export const AtsEventAccepted = z
  .object({ id: prefixedId(ID_PREFIXES.atsEvent), status: z.enum(['accepted', 'duplicate']) })
  .meta({ id: 'AtsEventAccepted' });
export type AtsEventAccepted = z.infer<typeof AtsEventAccepted>;

/** An ATS source's stages that schedule an AI interview (set in the console; stored lowercase). */
export const AtsStageName = trimmedText(200);
export const SetStageMappingsInput = z.object({
  source: AtsEventBody.shape.source,
  stages: z.array(AtsStageName).max(50),
});
export type SetStageMappingsInput = z.infer<typeof SetStageMappingsInput>;
export const StageMappings = z.object({ source: z.string(), stages: z.array(z.string()) });
export type StageMappings = z.infer<typeof StageMappings>;
/** At most this many sources are listed (the console's ATS page); an organization has a handful. */
export const MAX_ATS_SOURCES = 100;
