import { z } from 'zod';
import { AuditRetentionDays, BaseConfig, IdempotencyRetentionHours, OutboxRetentionHours, PurgeIntervalMinutes, keyRingSetting, loadConfig, serviceEnv } from '@hireloop/platform';

export const RecruitingConfig = BaseConfig.extend({
  RECRUITING_PORT: z.coerce.number().int().default(3102),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: z.url().default('http://localhost:3000'),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  INTEGRATIONS_URL: z.url().default('http://127.0.0.1:3103'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('hireloop'),
  EXPIRY_SWEEP_SECONDS: z.coerce.number().min(1).default(30),
  /**
   * How long answers and evaluation text are kept; the invite page's AI notice states it (PRODUCT.md §10).
   * At least 30: the kept events (GET /events, replays; integrations keeps them 30 days) hold
   * `evaluation.completed`'s snapshot, answers included, so a shorter period would be a promise
   * they break.
   */
  RETENTION_ANSWERS_DAYS: z.coerce
    .number()
    .int()
    .min(30, 'at least 30: kept events (GET /events, replays) hold evaluation snapshots for 30 days')
    .max(3650)
    .default(365),
  /** Signs list cursors (key list, newest first: `c2:<secret>,c1:<old>`). */
  CURSOR_KEYS: keyRingSetting('CURSOR_KEYS (or the older INTERNAL_AUTH_SECRET)', 'secret'),
  /** Seals invite tokens so `inviteUrl` can be shown again (AES-256-GCM key list). */
  INVITE_TOKEN_KEYS: keyRingSetting('INVITE_TOKEN_KEYS (or the older INTERNAL_AUTH_SECRET)', 'aes256'),
  /** The secret invite tokens were derived from before they were random: the start-up backfill seals those tokens. */
  INTERNAL_AUTH_SECRET: z.string().min(32).optional(),
  /** Relayed rows of recruiting.outbox and recruiting.workflow_outbox are purged after this. */
  OUTBOX_RETENTION_HOURS: OutboxRetentionHours,
  /** recruiting.idempotency_records (the Idempotency-Keys recorded with writes) are purged after this. */
  IDEMPOTENCY_RETENTION_HOURS: IdempotencyRetentionHours,
  /** How often the retention schedules this process creates run; an existing schedule is updated to it. */
  PURGE_INTERVAL_MINUTES: PurgeIntervalMinutes,
  /** Audit rows (recruiting.audit_events) are purged after this. */
  AUDIT_RETENTION_DAYS: AuditRetentionDays,
  /** Deadline of each call an outbox relay makes (publish, workflow start); claimed rows are leased for 3×. */
  RELAY_CALL_TIMEOUT_MS: z.coerce.number().int().min(50).default(10_000),
  /** The interviewer's follow-ups (PRODUCT.md §12): without a key the offline writer asks them (model "offline"). */
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** The deadline of one follow-up: past it, the next scripted question comes (the turn records `timeout`). */
  INTERVIEWER_FOLLOW_UP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8000),
  /** A change must commit within this many ms of its `updated_at`; `updatedAfter` lists lag twice this. */
  SYNC_COMMIT_WINDOW_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
});
export type RecruitingConfig = z.infer<typeof RecruitingConfig>;
export const loadRecruitingConfig = () => loadConfig(RecruitingConfig, serviceEnv('recruiting'));
