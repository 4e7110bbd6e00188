import { z } from 'zod';
import { loadConfig } from '@hireloop/platform';

export const WorkerConfig = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('hireloop'),
  WORKER_PORT: z.coerce.number().int().default(3109),
  HOST: z.string().default('127.0.0.1'),
});
export type WorkerConfig = z.infer<typeof WorkerConfig>;
export const loadWorkerConfig = () => loadConfig(WorkerConfig);
