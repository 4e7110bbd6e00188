import { createDb, createPool, PURGE_BATCH, purgeInBatches, sql } from '@hireloop/platform';

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
    /**
     * The erasure's gateway step (activities/erasure.ts): the stored idempotent responses that name
     * one of `ids` are voided, in batches. A voided record keeps its key and fingerprint until the
     * purge (PRODUCT.md §6): a retry with the same body is 404, and with another body 422
     * `idempotency_key_reused`, not a new run. The ids join the erased ones, so a reply stored
     * after this step that names one is stored voided too (gateway/src/api/erasure-replies.ts);
     * the step takes no lock, so the ordering against a store at the same moment is the DELETE's
     * own (it records the ids it could name under the organization's lock).
     */
    async voidStoredResponses(ids: string[]): Promise<number> {
      await sql`insert into gateway.erased_subjects (id) select unnest(${ids}::text[]) on conflict (id) do nothing`.execute(db);
      let total = 0;
      for (;;) {
        const voided = await sql`
          update gateway.idempotency_keys set state = 'voided', response_status = null, response_headers = null, response_body = null, locked_until = null
          where ctid in (select ctid from gateway.idempotency_keys where subject_ids && ${ids}::text[] and state = 'completed' limit ${PURGE_BATCH})`.execute(db);
        const n = Number(voided.numAffectedRows ?? 0);
        total += n;
        if (n < PURGE_BATCH) return total;
      }
    },
  };
}
export type GatewayRetention = ReturnType<typeof createGatewayRetentionActivities>;
/** What the worker registers as activities (voidStoredResponses is the erasure's, through erasure.ts). */
export type GatewayRetentionActivities = Omit<GatewayRetention, 'voidStoredResponses'>;
