import { sql, type Kysely } from 'kysely';
import { serviceFetch } from './service-fetch.js';
import type { Logger } from './logger.js';
import { OUTBOX_CHANNEL, type OutboxEvent } from './outbox.js';
import { claimWithLease, releaseLease, withTimeout, type LeaseTable } from './lease.js';
import { RelayLoop, type RelayTiming } from './relay-loop.js';
import { SYSTEM_SUBJECT, type InternalTokenCache } from './internal-auth.js';

export interface PublishedEvent extends OutboxEvent {
  organizationId: string;
}

/**
 * Publishes a service's outbox at least once: claims unpublished rows with a lease (several
 * instances share the work; no lock is held while publishing), hands them to `publish` (the
 * integrations service's fan-out) under a deadline, and marks them published only after it
 * succeeded. A failed or timed-out call gives the rows back; a crashed instance's lease runs out.
 * Consumers are idempotent by event id.
 */
export class OutboxPublisher {
  private readonly loop: RelayLoop;
  private readonly table: LeaseTable;

  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private readonly db: Kysely<any>,
    private readonly schema: string,
    private readonly publish: (events: PublishedEvent[], signal: AbortSignal) => Promise<void>,
    logger: Logger,
    private readonly timing: RelayTiming = {},
    private readonly batch = 100,
  ) {
    this.table = { schema, table: 'outbox', key: 'id' };
    this.loop = new RelayLoop({ name: 'outbox-publisher', schema, channel: OUTBOX_CHANNEL, timing, logger, pass: () => this.pass() });
  }

  start(databaseUrl?: string): Promise<void> {
    return this.loop.start(databaseUrl);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async pass(): Promise<boolean> {
    const rows = await claimWithLease<{ id: string; organization_id: string; payload: OutboxEvent }>(this.db, this.table, {
      pending: sql`published_at is null`,
      orderBy: sql`created_at, id`,
      limit: this.batch,
      leaseMs: this.loop.leaseMs,
    });
    if (rows.length === 0) return false;
    const ids = rows.map((r) => r.id);
    try {
      const events = rows.map((r) => ({ ...r.payload, organizationId: r.organization_id }));
      await withTimeout(this.loop.callTimeoutMs, 'publishing the outbox', (signal) => this.publish(events, signal));
    } catch (err) {
      await releaseLease(this.db, this.table, ids);
      throw err;
    }
    await sql`update ${sql.id(this.schema, 'outbox')} set published_at = now(), lease_until = null where id = any(${ids})`.execute(this.db);
    return rows.length === this.batch;
  }
}

/**
 * Where services publish their outbox: the integrations service's `events.ingest` procedure
 * (fan-out to webhooks), called over tRPC's HTTP wire format as the `system` subject. Kept here,
 * not as a typed client, so no service package has to depend on the integrations package.
 */
export function integrationsEventSink(integrationsUrl: string, tokens: InternalTokenCache) {
  return async (events: PublishedEvent[], signal?: AbortSignal): Promise<void> => {
    const token = await tokens.tokenFor({ sub: SYSTEM_SUBJECT, org: null, scopes: ['read', 'write', 'admin'] });
    const res = await serviceFetch(`${integrationsUrl.replace(/\/$/, '')}/trpc/events.ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ events }),
      signal,
    });
    if (!res.ok) throw new Error(`integrations refused the events: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  };
}
