import { sql, type Kysely } from 'kysely';
import type { Logger } from './logger.js';
import { OUTBOX_CHANNEL, type OutboxEvent } from './outbox.js';
import { RelayLoop } from './relay-loop.js';
import { SYSTEM_SUBJECT, type InternalTokenCache } from './internal-auth.js';

export interface PublishedEvent extends OutboxEvent {
  organizationId: string;
}

/**
 * Publishes a service's outbox at least once: claims unpublished rows (SKIP LOCKED, so several
 * instances share the work), hands them to `publish` (the integrations service's fan-out), and
 * marks them published only after it succeeded. Consumers are idempotent by event id.
 */
export class OutboxPublisher {
  private readonly loop: RelayLoop;

  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private readonly db: Kysely<any>,
    private readonly schema: string,
    private readonly publish: (events: PublishedEvent[]) => Promise<void>,
    logger: Logger,
    pollMs = 1000,
    private readonly batch = 100,
  ) {
    this.loop = new RelayLoop({ name: 'outbox-publisher', schema, channel: OUTBOX_CHANNEL, pollMs, logger, pass: () => this.pass() });
  }

  start(databaseUrl?: string): Promise<void> {
    return this.loop.start(databaseUrl);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private pass(): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: string; organization_id: string; payload: OutboxEvent }>`
        select id, organization_id, payload from ${sql.id(this.schema, 'outbox')}
        where published_at is null order by created_at, id limit ${this.batch} for update skip locked`.execute(trx);
      if (rows.length === 0) return false;
      await this.publish(rows.map((r) => ({ ...r.payload, organizationId: r.organization_id })));
      await sql`update ${sql.id(this.schema, 'outbox')} set published_at = now() where id = any(${rows.map((r) => r.id)})`.execute(trx);
      return rows.length === this.batch;
    });
  }
}

/**
 * Where services publish their outbox: the integrations service's `events.ingest` procedure
 * (fan-out to webhooks), called over tRPC's HTTP wire format as the `system` subject. Kept here,
 * not as a typed client, so no service package has to depend on the integrations package.
 */
export function integrationsEventSink(integrationsUrl: string, tokens: InternalTokenCache) {
  return async (events: PublishedEvent[]): Promise<void> => {
    const token = await tokens.tokenFor({ sub: SYSTEM_SUBJECT, org: null, scopes: ['read', 'write', 'admin'] });
    const res = await fetch(`${integrationsUrl.replace(/\/$/, '')}/trpc/events.ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ events }),
    });
    if (!res.ok) throw new Error(`integrations refused the events: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  };
}
