import { z } from 'zod';
import { BaseConfig, loadConfig } from '@hireloop/platform';

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
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('hireloop'),
  /** 32 random bytes, base64: encrypts webhook secrets at rest. */
  WEBHOOK_SECRET_KEY: z.string().refine((k) => Buffer.from(k, 'base64').length === 32, 'WEBHOOK_SECRET_KEY must be 32 bytes, base64'),
  /** Development only: lets webhooks target loopback (http allowed there). */
  WEBHOOK_ALLOW_LOOPBACK: Bool.default(false),
  /** Waits between delivery attempts (PRODUCT.md §8). */
  WEBHOOK_RETRY_SCHEDULE: Schedule.prefault('5s,5m,30m,2h,5h,10h,10h'),
});
export type IntegrationsConfig = z.infer<typeof IntegrationsConfig>;
export const loadIntegrationsConfig = () => loadConfig(IntegrationsConfig);
