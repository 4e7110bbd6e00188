import { z } from 'zod';
import { ID_PREFIXES, Instant, int32, prefixedId, text, Timestamp } from './common.js';
import { RequestId } from './http.js';
import { ListQuery } from './recruiting.js';

export const AuditEventId = prefixedId(ID_PREFIXES.auditEvent);

/**
 * Who acted: an API key (`key_…`), a console user (`usr_…`), or the platform itself (`system`, an
 * operator CLI such as `cli:keys`, or the candidate on the invite page: INVITE_PAGE_ACTOR).
 */
export const AuditActorType = z.enum(['api_key', 'user', 'system']);
export type AuditActorType = z.infer<typeof AuditActorType>;

/**
 * The actor id (type `system`) of the candidate's actions on the invite page (consent, decline,
 * start, submit): the candidate holds no key or login, and the row names no person.
 */
export const INVITE_PAGE_ACTOR = 'invite';

/** An actor or resource id as stored: ids only, never a name or an e-mail. */
const AuditRef = z.string().max(100);

/**
 * What the change was, where the action and resource do not say it: ids, codes and numbers only,
 * never personal data or free text (a review's note stays on the evaluation).
 */
export const AuditDetails = z
  .record(z.string().max(40).regex(/^[a-z][A-Za-z]{0,39}$/), z.union([z.string().max(100), int32(0, 2_000_000_000)]))
  .describe('What the change was, where the action and resource do not say it: `evaluation.reviewed` gives the `decision` and the evaluation `version` it was on. Absent on other actions');
export type AuditDetails = z.infer<typeof AuditDetails>;

/** What a service stores and returns (ids only); the merged list adds the actor's name. */
export const AuditRecord = z.object({
  id: AuditEventId,
  actor: z.object({ type: AuditActorType, id: AuditRef }),
  action: z.string().max(100).describe('What was done, `<resource>.<verb>`: `candidate.created`, `api_key.revoked`, `evaluation.reviewed`…'),
  resource: z.object({ type: z.string().max(50), id: AuditRef }),
  requestId: RequestId.nullable().describe('The `X-Request-Id` of the request that made the change'),
  ip: z.string().max(60).nullable().describe('The client address cut to its /24 (IPv4) or /48 (IPv6) prefix; null for the platform\'s own work'),
  details: AuditDetails.optional(),
  createdAt: Timestamp,
});
export type AuditRecord = z.infer<typeof AuditRecord>;

/** GET /api/v1/audit-events (PRODUCT.md §7): who did what, when. */
export const AuditEvent = AuditRecord.extend({
  actor: AuditRecord.shape.actor.extend({ name: z.string().max(200).describe('The key\'s or user\'s name, or the platform tool that acted') }),
}).meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof AuditEvent>;

export const AuditFilters = z.object({
  actorId: text().max(100).describe('Only events of this actor (`key_…`, `usr_…`, `system`, `cli:keys`)').optional(),
  resourceId: text().max(100).describe('Only events about this resource').optional(),
  action: text().max(100).describe('Only this action, e.g. `candidate.updated`').optional(),
  createdAfter: Instant.describe('Only events after this instant').optional(),
  createdBefore: Instant.describe('Only events before this instant').optional(),
});
export type AuditFilters = z.infer<typeof AuditFilters>;

export const ListAuditEventsQuery = ListQuery.extend(AuditFilters.shape).strict();
export type ListAuditEventsQuery = z.infer<typeof ListAuditEventsQuery>;

/** One service's slice of the merged list: the rows before a position, newest first. */
export const AuditSliceQuery = AuditFilters.extend({
  before: z.object({ createdAt: Timestamp, id: AuditEventId }).optional(),
  limit: z.number().int().min(1).max(101),
}).strict();
export type AuditSliceQuery = z.infer<typeof AuditSliceQuery>;
