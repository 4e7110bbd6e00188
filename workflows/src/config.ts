import { z } from 'zod';
import { IdempotencyRetentionHours, keyRingSetting, loadConfig, PurgeIntervalMinutes } from '@hireloop/platform';

export const WorkerConfig = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('hireloop'),
  WORKER_PORT: z.coerce.number().int().default(3109),
  /** Activities this worker runs at once (its slots; Temporal's default). */
  WORKER_MAX_CONCURRENT_ACTIVITIES: z.coerce.number().int().min(1).default(100),
  IDENTITY_URL: z.url().default('http://127.0.0.1:3101'),
  RECRUITING_URL: z.url().default('http://127.0.0.1:3102'),
  INTEGRATIONS_URL: z.url().default('http://127.0.0.1:3103'),
  /** The gateway's own role, for the purge of its idempotency records (falls back to DATABASE_URL; neither: no purge). */
  GATEWAY_DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  /** Idempotency records are replayed for 24 h, then purged after this. */
  IDEMPOTENCY_RETENTION_HOURS: IdempotencyRetentionHours,
  /** How often the retention schedules this process creates run; an existing schedule is updated to it. */
  PURGE_INTERVAL_MINUTES: PurgeIntervalMinutes,
  INTERNAL_TOKEN_KEYS: keyRingSetting('INTERNAL_TOKEN_KEYS (or the older INTERNAL_AUTH_SECRET)', 'secret'),
  /** Without a key the offline provider answers (model "offline"). */
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  /** How many of an erased person's interview and enrollment ids one call of an erasure step handles (a page). */
  ERASURE_PAGE_SIZE: z.coerce.number().int().min(1).max(1000).default(1000),
  HOST: z.string().default('127.0.0.1'),
});
export type WorkerConfig = z.infer<typeof WorkerConfig>;
export const loadWorkerConfig = () => loadConfig(WorkerConfig);

/** Where the gateway's idempotency records are purged from, if anywhere (see GATEWAY_DATABASE_URL). */
export const gatewayDatabaseUrl = (config: WorkerConfig) => config.GATEWAY_DATABASE_URL ?? config.DATABASE_URL;
