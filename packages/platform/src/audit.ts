import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Kysely, type Transaction } from 'kysely';
import { z } from 'zod';
import ipaddr from 'ipaddr.js';
import { ID_PREFIXES, type AuditActorType, type AuditDetails, type AuditFilters, type AuditRecord, type AuditSliceQuery } from '@hireloop/contracts';
import { newId } from './ids.js';
import { SYSTEM_SUBJECT, type InternalAuth } from './internal-auth.js';
import { purgeInBatches } from './purge.js';

/**
 * The audit trail (PRODUCT.md §7, §10): every write records one row in the owning service's
 * `audit_events`, in the transaction of the write, so a write that rolls back leaves none.
 *
 * Who acted, the request and the client's address prefix arrive with the service call (the
 * internal token's subject, `X-Request-Id`, and the two headers below); the service's procedure
 * builders put them in an async-local scope for the duration of the call, so a query function
 * says only *what* it did: `recordAudit(trx, schema, org, 'candidate.created', {type, id})`.
 */

/** The client's address cut to its /24 or /48 prefix, set by the gateway (honouring TRUST_PROXY). */
export const CLIENT_IP_PREFIX_HEADER = 'x-client-ip-prefix';
/**
 * Who the platform acts for when its token's subject is `system`: an operator CLI (`cli:keys`), or
 * the user or key whose call one service passes on to another. Ignored on any other subject.
 */
export const AUDIT_ACTOR_HEADER = 'x-audit-actor';

/** Who, which request and from where, for the audit rows a service call writes. */
export interface AuditContext {
  actorId: string;
  requestId: string | null;
  ipPrefix: string | null;
}

const ACTOR_ID = /^[A-Za-z0-9_:.-]{1,100}$/;
const scope = new AsyncLocalStorage<AuditContext>();

/** Runs `fn` with `context` as the actor of every audit row it records. */
export function runWithAuditContext<T>(context: AuditContext, fn: () => T): T {
  return scope.run(context, fn);
}

/** The audit context of the running service call, if any. */
export function currentAuditContext(): AuditContext | undefined {
  return scope.getStore();
}

/** The kind of actor an id names: keys and users by their prefix, anything else is the platform. */
export function auditActorType(actorId: string): AuditActorType {
  if (actorId.startsWith(`${ID_PREFIXES.apiKey}_`)) return 'api_key';
  if (actorId.startsWith(`${ID_PREFIXES.user}_`)) return 'user';
  return 'system';
}

/**
 * The network prefix of a client address, never the address (PRODUCT.md §7): `203.0.113.0/24`,
 * `2001:db8:1::/48`. IPv4-mapped IPv6 addresses count as IPv4. Null for anything unparseable.
 */
export function clientIpPrefix(ip: string | null | undefined): string | null {
  if (!ip || !ipaddr.isValid(ip)) return null;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') {
    const [a, b, c] = (address as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.0/24`;
  }
  const parts = (address as ipaddr.IPv6).parts.slice(0, 3).map((p) => p.toString(16));
  return `${ipaddr.IPv6.parse(`${parts.join(':')}::`).toString()}/48`;
}

/**
 * A prefix as it arrives in the header: kept only when it is a well-formed /24 or /48 network.
 * Every service call carries one and the same few networks recur, so the verdicts are memoised
 * (parsing an IPv6 CIDR was a measurable share of a service's CPU per call); the memo is emptied
 * when it reaches MEMO_LIMIT entries, so a stream of distinct values cannot grow it.
 */
function wellFormedPrefix(value: string | undefined): string | null {
  if (!value || value.length > 60) return null;
  let verdict = prefixVerdicts.get(value);
  if (verdict === undefined) {
    verdict = ipaddr.isValidCIDR(value) && isAuditNetwork(value);
    if (prefixVerdicts.size >= MEMO_LIMIT) prefixVerdicts.clear();
    prefixVerdicts.set(value, verdict);
  }
  return verdict ? value : null;
}
const MEMO_LIMIT = 10_000;
const prefixVerdicts = new Map<string, boolean>();

function isAuditNetwork(cidr: string): boolean {
  const [address, bits] = ipaddr.parseCIDR(cidr);
  return bits === (address.kind() === 'ipv4' ? 24 : 48);
}

/**
 * The audit context of an incoming service call: the token's subject, or, when the platform calls
 * for someone (`system`), the actor it names in AUDIT_ACTOR_HEADER.
 */
export function auditContextOf(auth: InternalAuth | null, requestId: string | null, headers: { ipPrefix?: string; actor?: string }): AuditContext {
  const onBehalfOf = headers.actor && ACTOR_ID.test(headers.actor) ? headers.actor : null;
  const actorId = auth?.sub === SYSTEM_SUBJECT ? (onBehalfOf ?? SYSTEM_SUBJECT) : (auth?.sub ?? SYSTEM_SUBJECT);
  return { actorId, requestId, ipPrefix: wellFormedPrefix(headers.ipPrefix) };
}

export interface AuditResource {
  type: string;
  id: string;
}

/**
 * Records that the running call did `action` to `resource` in `organizationId`. Call it with the
 * transaction that makes the change (like recordEvent): the row exists exactly when the change
 * does. Ids only: no name, e-mail or other personal data goes into an audit row.
 *
 * `actorId` names the actor when the call's caller is not it: a console login, made by the
 * platform for a user whom only the password proves (`usr_…`), or the candidate's invite page
 * (INVITE_PAGE_ACTOR). The request id and address prefix are still the call's. `details`: what the
 * change was where action and resource do not say it (a review's decision): ids and codes only.
 */
export async function recordAudit(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  trx: Transaction<any> | Kysely<any>,
  schema: string,
  organizationId: string,
  action: string,
  resource: AuditResource,
  actorId?: string,
  details?: AuditDetails,
): Promise<void> {
  const context = scope.getStore() ?? { actorId: SYSTEM_SUBJECT, requestId: null, ipPrefix: null };
  const actor = actorId ?? context.actorId;
  await sql`insert into ${sql.id(schema, 'audit_events')}
              (id, organization_id, actor_type, actor_id, action, resource_type, resource_id, request_id, ip_prefix, details)
            values (${newId(ID_PREFIXES.auditEvent)}, ${organizationId}, ${auditActorType(actor)}, ${actor}, ${action},
                    ${resource.type}, ${resource.id}, ${context.requestId}, ${context.ipPrefix}, ${details ? JSON.stringify(details) : null}::jsonb)`.execute(trx);
}

interface AuditRow {
  id: string;
  actor_type: AuditActorType;
  actor_id: string;
  action: string;
  resource_type: string;
  resource_id: string;
  request_id: string | null;
  ip_prefix: string | null;
  details: AuditDetails | null;
  created_at: Date;
}

/**
 * Rows of one service's audit trail before `query.before`, newest first: its slice of the merged
 * list. Ids compare in byte order (collate "C"), the order `newestAuditFirst` merges in.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function listAuditRecords(db: Kysely<any>, schema: string, organizationId: string, query: AuditSliceQuery): Promise<AuditRecord[]> {
  const where = [sql`organization_id = ${organizationId}`, ...auditFilterSql(query)];
  if (query.before) where.push(sql`(created_at, id collate "C") < (${new Date(query.before.createdAt)}, ${query.before.id})`);
  const rows = await sql<AuditRow>`
    select id, actor_type, actor_id, action, resource_type, resource_id, request_id, ip_prefix, details, created_at
    from ${sql.id(schema, 'audit_events')}
    where ${sql.join(where, sql` and `)}
    order by created_at desc, id collate "C" desc
    limit ${query.limit}`.execute(db);
  return rows.rows.map((r) => ({
    id: r.id,
    actor: { type: r.actor_type, id: r.actor_id },
    action: r.action,
    resource: { type: r.resource_type, id: r.resource_id },
    requestId: r.request_id,
    ip: r.ip_prefix,
    ...(r.details ? { details: r.details } : {}),
    createdAt: r.created_at.toISOString(),
  }));
}

/** The merged list's order: newest first by (createdAt, id), ids in byte order as in listAuditRecords. */
export function newestAuditFirst(a: AuditRecord, b: AuditRecord): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

function auditFilterSql(filters: AuditFilters) {
  const where = [];
  if (filters.actorId) where.push(sql`actor_id = ${filters.actorId}`);
  if (filters.resourceId) where.push(sql`resource_id = ${filters.resourceId}`);
  if (filters.action) where.push(sql`action = ${filters.action}`);
  if (filters.createdAfter) where.push(sql`created_at > ${new Date(filters.createdAfter)}`);
  if (filters.createdBefore) where.push(sql`created_at < ${new Date(filters.createdBefore)}`);
  return where;
}

/** AUDIT_RETENTION_DAYS: how long audit rows are kept (PRODUCT.md §7: one year). */
export const AuditRetentionDays = z.coerce.number().int().min(1).max(36_500).default(365);

/** The retention purge of audit rows older than AUDIT_RETENTION_DAYS, for each service's purge schedule. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function purgeAuditEvents(db: Kysely<any>, schema: string, retentionDays: number): Promise<number> {
  return purgeInBatches(db, { schema, table: 'audit_events', key: 'id' }, sql`created_at < now() - make_interval(days => ${retentionDays})`);
}
