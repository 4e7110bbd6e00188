import { AppError, listAuditRecords, newestAuditFirst, type CursorCodec } from '@hireloop/platform';
import { INVITE_PAGE_ACTOR, type AuditEvent, type AuditFilters, type AuditRecord, type AuditSliceQuery, type ListAuditEventsQuery, type Scope } from '@hireloop/contracts';
import { SCHEMA, type Db } from '../db.js';

/** Another service's slice of the audit trail (recruiting, integrations), read through its router. */
export type AuditSource = (organizationId: string, query: AuditSliceQuery) => Promise<AuditRecord[]>;

/**
 * GET /audit-events and the console's audit view (PRODUCT.md §7; CLARIFICATIONS "Audit across
 * services"): each service keeps the rows of its own writes, and identity, which owns the actors,
 * merges them. Every source returns up to limit + 1 rows before the cursor's position in the same
 * order, so the first `limit` of their union is exactly the next page.
 */
export async function listAuditEvents(db: Db, codec: CursorCodec, sources: AuditSource[], organizationId: string, scopes: Scope[], query: ListAuditEventsQuery) {
  if (!scopes.includes('admin')) throw new AppError('insufficient_scope', 'The audit trail needs the `admin` scope.');
  const filters: AuditFilters = { actorId: query.actorId, resourceId: query.resourceId, action: query.action, createdAfter: query.createdAfter, createdBefore: query.createdBefore };
  const context = { list: 'audit_events', organizationId, filters };
  const before = query.cursor ? codec.decode(query.cursor, context) : undefined;
  const slice: AuditSliceQuery = {
    ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)),
    ...(before && { before: { createdAt: before.createdAt.toISOString(), id: before.id } }),
    limit: query.limit + 1,
  };
  const slices = await Promise.all([listAuditRecords(db, SCHEMA, organizationId, slice), ...sources.map((source) => source(organizationId, slice))]);
  const merged = slices.flat().sort(newestAuditFirst);
  const items = merged.slice(0, query.limit);
  const last = items.at(-1);
  const nextCursor = merged.length > query.limit && last ? codec.encode({ createdAt: new Date(last.createdAt), id: last.id }, context) : null;
  return { items: await withActorNames(db, organizationId, items), nextCursor };
}

/** The name of a platform actor: an operator CLI by its command, the invite page's candidate, or the platform. */
function systemActorName(id: string): string {
  if (id === INVITE_PAGE_ACTOR) return 'Candidate on the invite page';
  return id.startsWith('cli:') ? `npm run ${id.slice(4)}` : 'Hireloop';
}

/** Audit rows hold ids only; names are looked up when the list is read (keys and users live here). */
async function withActorNames(db: Db, organizationId: string, records: AuditRecord[]): Promise<AuditEvent[]> {
  const idsOf = (type: AuditRecord['actor']['type']) => [...new Set(records.filter((r) => r.actor.type === type).map((r) => r.actor.id))];
  const keyIds = idsOf('api_key');
  const userIds = idsOf('user');
  const [keys, users] = await Promise.all([
    keyIds.length ? db.selectFrom('identity.api_keys').select(['id', 'name']).where('organization_id', '=', organizationId).where('id', 'in', keyIds).execute() : [],
    userIds.length ? db.selectFrom('identity.users').select(['id', 'name']).where('organization_id', '=', organizationId).where('id', 'in', userIds).execute() : [],
  ]);
  const names = new Map([...keys, ...users].map((row) => [row.id, row.name]));
  return records.map((r) => ({ ...r, actor: { ...r.actor, name: r.actor.type === 'system' ? systemActorName(r.actor.id) : (names.get(r.actor.id) ?? r.actor.id) } }));
}
