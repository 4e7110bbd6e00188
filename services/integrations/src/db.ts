import type { ColumnType, Kysely, Transaction } from '@hireloop/platform';

type Timestamp = ColumnType<Date, Date | undefined, Date>;
type Json<T> = ColumnType<T, string, string>;

export interface WebhooksTable {
  id: string;
  organization_id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  secret_sealed: string;
  failing_since: Date | null;
  deleted_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DeliveryAttemptsTable {
  id: string;
  organization_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
  created_at: Timestamp;
}

export interface TasksTable {
  id: string;
  organization_id: string;
  kind: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  input: Json<Record<string, unknown>>;
  position_id: string | null;
  result: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  error: ColumnType<{ code: string; message: string } | null, string | null, string | null>;
  completed_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AtsEventsTable {
  id: string;
  organization_id: string;
  source: string;
  event_id: string;
  type: string;
  payload: Json<Record<string, unknown>>;
  status: 'accepted' | 'processed' | 'failed';
  result: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  processed_at: Date | null;
  created_at: Timestamp;
}

export interface IntegrationsDB {
  'integrations.webhooks': WebhooksTable;
  'integrations.delivery_attempts': DeliveryAttemptsTable;
  'integrations.tasks': TasksTable;
  'integrations.ats_events': AtsEventsTable;
}

export type Db = Kysely<IntegrationsDB> | Transaction<IntegrationsDB>;
export const SCHEMA = 'integrations';
