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
  /** Start of its current run of failed attempts (a 2xx ends it); 5 days of it disables the endpoint. */
  failing_since: Date | null;
  /** The circuit breaker: that run's length; at WEBHOOK_BREAKER_FAILURES the endpoint is `failing`. */
  consecutive_failures: ColumnType<number, number | undefined, number>;
  /** Probes that failed since the breaker opened (each waits longer: the retry schedule). */
  probes_failed: ColumnType<number, number | undefined, number>;
  /** While failing: when its loop may probe next. */
  probe_at: Date | null;
  /** When its retry loop looks next (its timer); null while no loop runs (endpoint-loops.ts). */
  retry_loop_at: Date | null;
  /** The secret before the last rotation, still signing (as a second signature) until `previous_secret_until`. */
  previous_secret_sealed: string | null;
  previous_secret_until: Date | null;
  deleted_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An event as delivered (the envelope), kept 30 days for GET /events and replays. */
export interface EventsTable {
  id: string;
  organization_id: string;
  type: string;
  payload: Json<{ id: string; type: string; createdAt: string; data: unknown }>;
  created_at: Date;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'retrying' | 'failed' | 'cancelled';

/** One (event, endpoint) pair: the dispatchers' queue and the delivery log's rows. */
export interface DeliveriesTable {
  id: string;
  organization_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  /** The deployment whose dispatchers and workers deliver it (that of the instance that queued it). */
  task_queue: string;
  status: DeliveryStatus;
  /** Bumped by a manual retry or a replay: the retry workflow of an older generation stops. */
  generation: ColumnType<number, number | undefined, number>;
  attempts: ColumnType<number, number | undefined, number>;
  /** Failed attempts of this generation: the place in the retry schedule (reset by a retry or replay). */
  retry_step: ColumnType<number, number | undefined, number>;
  /** Put at the head of its endpoint's retry queue (a manual retry or a replay while it was failing). */
  queue_head: ColumnType<boolean, boolean | undefined, boolean>;
  /** When it is due (its earliest time while its endpoint is failing). */
  next_attempt_at: Date | null;
  /** A dispatcher holds the delivery until then; past it, Temporal takes over. */
  lease_until: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  last_attempt_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DeliveryAttemptsTable {
  id: string;
  delivery_id: string | null;
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
  kind: 'job_description' | 'candidate_erasure';
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  input: Json<Record<string, unknown>>;
  position_id: string | null;
  /** The candidate a `candidate_erasure` erases (one such task per candidate). */
  candidate_id: ColumnType<string | null, string | null | undefined, string | null>;
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

/** An endpoint whose retry queue changed: its loop may have to look sooner (endpoint-loops.ts). */
/**
 * A fan-out's deliveries to endpoints that were `failing`, not yet written (deferred-fan-out.ts):
 * one row per event, written into the endpoints' retry queues at a bounded rate.
 */
export interface DeferredFanOutTable {
  event_id: string;
  organization_id: string;
  event_type: string;
  /** The deployment whose writer writes them (the deliveries' `task_queue`). */
  task_queue: string;
  webhook_ids: string[];
  /** The fan-out's time: the deliveries' creation and earliest due time. */
  created_at: Date;
}

export interface EndpointWakesTable {
  webhook_id: string;
  /** The deployment whose loop waker handles it. */
  task_queue: string;
  requested_at: Timestamp;
}

/**
 * POST /webhooks/{id}/replay: its window, counted when it was asked for, and how far the
 * background has queued it (webhooks/replay.ts). (`integrations.endpoint_waiters`, the queue of
 * the per-delivery workflows before issue 19, is no longer used.)
 */
export interface ReplaysTable {
  id: string;
  organization_id: string;
  webhook_id: string;
  /** The deployment that queues it (its TEMPORAL_TASK_QUEUE). */
  task_queue: string;
  since: Date;
  until: Date;
  /** The event types replayed; null: every type but the ping. */
  types: string[] | null;
  after_created_at: Date | null;
  after_id: string | null;
  queued: ColumnType<number, number | undefined, number>;
  lease_until: Date | null;
  created_at: Timestamp;
  finished_at: Date | null;
}

/** Tombstones of erased people: the ids their events name (no personal data). */
export interface ErasedIdsTable {
  organization_id: string;
  id: string;
  candidate_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface IntegrationsDB {
  'integrations.webhooks': WebhooksTable;
  'integrations.delivery_attempts': DeliveryAttemptsTable;
  'integrations.events': EventsTable;
  'integrations.deliveries': DeliveriesTable;
  'integrations.replays': ReplaysTable;
  'integrations.endpoint_wakes': EndpointWakesTable;
  'integrations.deferred_fan_out': DeferredFanOutTable;
  'integrations.tasks': TasksTable;
  'integrations.ats_events': AtsEventsTable;
  'integrations.erased_ids': ErasedIdsTable;
}

export type Db = Kysely<IntegrationsDB> | Transaction<IntegrationsDB>;
export const SCHEMA = 'integrations';
