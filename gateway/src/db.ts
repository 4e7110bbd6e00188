import type { ColumnType, Kysely } from '@hireloop/platform';

export interface IdempotencyKeysTable {
  api_key_id: string;
  method: string;
  path: string;
  idempotency_key: string;
  fingerprint: string;
  /** `voided`: the response named a person since erased; a retry is 404 (api/erasure-replies.ts). */
  state: 'in_flight' | 'completed' | 'voided';
  locked_until: Date | null;
  response_status: number | null;
  response_headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  response_body: string | null;
  /** Ids of the people (candidates, their interviews and enrollments) the stored response names: what erasure looks for. */
  subject_ids: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  created_at: ColumnType<Date, Date | undefined, Date>;
}

/** Ids of people erased lately: a reply stored after its person's erasure is voided as it is stored (api/erasure-replies.ts). */
export interface ErasedSubjectsTable {
  id: string;
  created_at: ColumnType<Date, Date | undefined, Date>;
}

export interface GatewayDB {
  'gateway.idempotency_keys': IdempotencyKeysTable;
  'gateway.erased_subjects': ErasedSubjectsTable;
}
export type GatewayDb = Kysely<GatewayDB>;
