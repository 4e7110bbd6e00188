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
    /** Also forgets the erased ids (gateway.erased_subjects) as old: they guard replies stored while their people were erased. */
    async purgeIdempotencyKeys(): Promise<{ idempotencyKeys: number; erasedSubjects: number }> {
      const condition = sql`created_at < now() - make_interval(hours => ${retentionHours})`;
      return {
        idempotencyKeys: await purgeInBatches(db, { schema: 'gateway', table: 'idempotency_keys', key: 'ctid' }, condition),
        erasedSubjects: await purgeInBatches(db, { schema: 'gateway', table: 'erased_subjects', key: 'id' }, condition),
      };
    },
    /** Deletes the stored idempotent responses that name one of `ids` (the erasure's gateway step: activities/erasure.ts). */
    async deleteStoredResponses(ids: string[]): Promise<number> {
      return purgeInBatches(db, { schema: 'gateway', table: 'idempotency_keys', key: 'ctid' }, sql`subject_ids && ${ids}::text[]`);
    },
  };
}
export type GatewayRetention = ReturnType<typeof createGatewayRetentionActivities>;
/** What the worker registers as activities (deleteStoredResponses is the erasure's, through erasure.ts). */
export type GatewayRetentionActivities = Omit<GatewayRetention, 'deleteStoredResponses'>;
