import { createDb, createPool, purgeInBatches, sql } from '@hireloop/platform';

export interface GatewayRetentionDeps {
  /** The gateway's own Postgres role (GATEWAY_DATABASE_URL): it reaches the gateway schema only. */
  gatewayDatabaseUrl: string;
  retentionHours: number;
}

/**
 * The purge of the gateway's idempotency records (gateway.idempotency_keys), and their erasure. The gateway has no
 * RPC surface and no Temporal client, so this activity runs it with the gateway's database role:
 * it can touch no other schema. Records are replayed for 24 h, so the retention is at least that.
 */
export function createGatewayRetentionActivities({ gatewayDatabaseUrl, retentionHours }: GatewayRetentionDeps) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = createDb<any>(createPool({ url: gatewayDatabaseUrl, applicationName: 'worker-gateway-retention', max: 1 }));
  return {
    async purgeIdempotencyKeys(): Promise<{ idempotencyKeys: number }> {
      const condition = sql`created_at < now() - make_interval(hours => ${retentionHours})`;
      return { idempotencyKeys: await purgeInBatches(db, { schema: 'gateway', table: 'idempotency_keys', key: 'ctid' }, condition) };
    },
    /**
     * Erasure's gateway step: stored idempotent responses that name one of the person's ids go
     * (a retry with the same Idempotency-Key then runs again, as after the 24 h replay window).
     */
    async eraseStoredResponses(args: { ids: string[] }): Promise<{ storedResponses: number }> {
      const condition = sql`subject_ids && ${args.ids}::text[]`;
      return { storedResponses: await purgeInBatches(db, { schema: 'gateway', table: 'idempotency_keys', key: 'ctid' }, condition) };
    },
  };
}
export type GatewayRetentionActivities = ReturnType<typeof createGatewayRetentionActivities>;
