import { z } from 'zod';
import { IdempotencyRetentionHours, keyRingSetting, LANE_NAMES, loadConfig, parseLanes, PurgeIntervalMinutes } from '@hireloop/platform';

export const WorkerConfig = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  /** The deployment's name; each work lane polls its own queue derived from it (platform's lanes.ts). */
  TEMPORAL_TASK_QUEUE: z.string().default('hireloop'),
  /**
   * The lanes this process polls, comma-separated: all of them by default (`npm start`, one
   * process); one or a few per worker deployment in production (docker-compose.yml).
   */
  WORKER_LANES: z.string().default(LANE_NAMES.join(',')).transform((s, ctx) => {
    try {
      const lanes = parseLanes(s);
      if (lanes.length > 0) return lanes;
      ctx.addIssue({ code: 'custom', message: 'name at least one lane' });
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
    }
    return z.NEVER;
  }),
  WORKER_PORT: z.coerce.number().int().default(3109),
  /** Activities each lane runs at once in this process (its slots; Temporal's default). */
  WORKER_MAX_CONCURRENT_ACTIVITIES: z.coerce.number().int().min(1).default(100),
  /** Workflow tasks each lane runs at once in this process (Temporal's default is 40). */
  WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: z.coerce.number().int().min(2).default(40),
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
