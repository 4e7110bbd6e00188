import { z } from 'zod';
import { BaseConfig, loadConfig } from '@hireloop/platform';

export const IdentityConfig = BaseConfig.extend({
  IDENTITY_PORT: z.coerce.number().int().default(3101),
  HOST: z.string().default('127.0.0.1'),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).default(12),
});
export type IdentityConfig = z.infer<typeof IdentityConfig>;

export const loadIdentityConfig = () => loadConfig(IdentityConfig);
