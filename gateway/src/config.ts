import { z } from 'zod';
import { BaseConfig, loadConfig } from '@hireloop/platform';

export const GatewayConfig = BaseConfig.extend({
  GATEWAY_PORT: z.coerce.number().int().default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: z.url().default('http://localhost:3000'),
  IDENTITY_URL: z.url(),
  RECRUITING_URL: z.url(),
  INTEGRATIONS_URL: z.url(),
  /** Session cookie lifetime; matches the identity service's session TTL. */
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).default(12),
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;
export const loadGatewayConfig = () => loadConfig(GatewayConfig);
