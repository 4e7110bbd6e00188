import { z } from 'zod';
import { BaseConfig, loadConfig } from '@hireloop/platform';

export const RecruitingConfig = BaseConfig.extend({
  RECRUITING_PORT: z.coerce.number().int().default(3102),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: z.url().default('http://localhost:3000'),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  INTEGRATIONS_URL: z.url().default('http://127.0.0.1:3103'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('hireloop'),
  EXPIRY_SWEEP_SECONDS: z.coerce.number().min(1).default(30),
});
export type RecruitingConfig = z.infer<typeof RecruitingConfig>;
export const loadRecruitingConfig = () => loadConfig(RecruitingConfig);
