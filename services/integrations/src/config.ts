import { z } from 'zod';
import { AuditRetentionDays, BaseConfig, IdempotencyRetentionHours, OutboxRetentionHours, PurgeIntervalMinutes, keyRingSetting, loadConfig, serviceEnv } from '@hireloop/platform';

const Bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
/** "5s,5m,30m,2h" → seconds. */
const Schedule = z
  .string()
  .regex(/^\d+(ms|s|m|h)(,\d+(ms|s|m|h))*$/, 'comma-separated durations such as 5s,5m,30m,2h')
  .transform((s) => s.split(',').map((d) => Number(d.replace(/\D+$/, '')) * { ms: 0.001, s: 1, m: 60, h: 3600 }[d.replace(/^\d+/, '') as 'ms' | 's' | 'm' | 'h']));

export const IntegrationsConfig = BaseConfig.extend({
  INTEGRATIONS_PORT: z.coerce.number().int().default(3103),
  HOST: z.string().default('127.0.0.1'),
  RECRUITING_URL: z.url().default('http://127.0.0.1:3102'),
  /** Interview events store their invite token sealed; deliveries and GET /events show `<PUBLIC_BASE_URL>/i/<token>`. */
  PUBLIC_BASE_URL: z.url().default('http://localhost:3000'),
  /** Opens (and re-seals at start) the invite tokens of stored interview events: recruiting's INVITE_TOKEN_KEYS. */
  INVITE_TOKEN_KEYS: keyRingSetting('INVITE_TOKEN_KEYS (or the older INTERNAL_AUTH_SECRET)', 'aes256'),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('hireloop'),
  /** Encrypts webhook secrets at rest: AES-256-GCM key list (32 bytes, base64, each). */
  WEBHOOK_SECRET_KEYS: keyRingSetting('WEBHOOK_SECRET_KEYS (or the older WEBHOOK_SECRET_KEY)', 'aes256'),
  /** Signs list cursors (key list, newest first: `c2:<secret>,c1:<old>`). */
  CURSOR_KEYS: keyRingSetting('CURSOR_KEYS (or the older INTERNAL_AUTH_SECRET)', 'secret'),
  /** Deadline of each call an outbox relay makes (publish, workflow start); claimed rows are leased for 3×. */
  RELAY_CALL_TIMEOUT_MS: z.coerce.number().int().min(50).default(10_000),
  /** Relayed rows of integrations.outbox and integrations.workflow_outbox are purged after this. */
  OUTBOX_RETENTION_HOURS: OutboxRetentionHours,
  /** Recorded Idempotency-Keys (integrations.idempotency_records) are purged after this. */
  IDEMPOTENCY_RETENTION_HOURS: IdempotencyRetentionHours,
  /** How often the retention schedules this process creates run; an existing schedule is updated to it. */
  PURGE_INTERVAL_MINUTES: PurgeIntervalMinutes,
  /** Webhook delivery attempts (the attempt log) are purged after this. */
  DELIVERY_ATTEMPT_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /** Inbound ATS events (their payloads name people) are purged after this; a re-sent eventId is accepted again after it. */
  ATS_EVENTS_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /** Audit rows (integrations.audit_events) are purged after this. */
  AUDIT_RETENTION_DAYS: AuditRetentionDays,
  /** Development only: lets webhooks target loopback (http allowed there). */
  WEBHOOK_ALLOW_LOOPBACK: Bool.default(false),
  /** Waits between delivery attempts (PRODUCT.md §8). */
  WEBHOOK_RETRY_SCHEDULE: Schedule.prefault('5s,5m,30m,2h,5h,10h,10h'),
  /** A delivery attempt gets this long for a 2xx: connect, send, response headers (PRODUCT.md §8: 15 s). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** How long a dispatcher holds a claimed delivery; past it (a dead dispatcher), Temporal takes over. */
  WEBHOOK_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
  /** Attempts in flight at once to one endpoint, across every instance. */
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /** Attempts in flight at once from one dispatcher (one instance). */
  WEBHOOK_DISPATCH_CONCURRENCY: z.coerce.number().int().min(1).max(2000).default(256),
  /** Consecutive failed attempts after which an endpoint is `failing` (its circuit breaker opens). */
  WEBHOOK_BREAKER_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  /** Queued retries per endpoint; beyond it the oldest is failed (`backlog limit` in its attempt log). */
  WEBHOOK_ENDPOINT_BACKLOG_MAX: z.coerce.number().int().min(1).max(10_000_000).default(10_000),
  /** Enabled endpoints per organization, counted on create and on re-enable (409 `conflict` beyond). */
  WEBHOOK_ENDPOINTS_PER_ORG_MAX: z.coerce.number().int().min(1).max(100_000).default(50),
  /**
   * Deliveries to `failing` or unhealthy endpoints written per second, per instance,
   * after bursts of up to WEBHOOK_DEFERRED_BURST (deferred-fan-out.ts): a storm of events to dead
   * endpoints is spread over time instead of taking Postgres from everything else.
   */
  WEBHOOK_DEFERRED_RATE: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  WEBHOOK_DEFERRED_BURST: z.coerce.number().int().min(1).max(10_000_000).default(2000),
  /** Rounds an endpoint's retry loop makes before it continues as new (bounds its Temporal history). */
  WEBHOOK_LOOP_ROUNDS_PER_RUN: z.coerce.number().int().min(1).max(10_000).default(200),
}).refine((c) => c.WEBHOOK_LEASE_MS >= c.WEBHOOK_TIMEOUT_MS + 1000, { message: 'WEBHOOK_LEASE_MS must exceed WEBHOOK_TIMEOUT_MS by at least 1 s', path: ['WEBHOOK_LEASE_MS'] });
export type IntegrationsConfig = z.infer<typeof IntegrationsConfig>;
export const loadIntegrationsConfig = () => loadConfig(IntegrationsConfig, serviceEnv('integrations'));
