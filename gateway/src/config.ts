import { z } from 'zod';
import { BaseConfig, keyRingSetting, loadConfig, serviceEnv } from '@hireloop/platform';

export const GatewayConfig = BaseConfig.extend({
  GATEWAY_PORT: z.coerce.number().int().default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: z.url().default('http://localhost:3000'),
  IDENTITY_URL: z.url(),
  RECRUITING_URL: z.url(),
  INTEGRATIONS_URL: z.url(),
  /** The Temporal UI the console's header links to (the launcher sets it); unset: no link. */
  TEMPORAL_UI_URL: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
  /** Session cookie lifetime; matches the identity service's session TTL. */
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).default(12),
  /**
   * Express `trust proxy`: which proxies' X-Forwarded-For to believe for the client IP (the login
   * throttle keys on it). Unset: none, the socket's address is the client. A hop count (`1`) or a
   * list of addresses, CIDRs or Express's names (`loopback, uniquelocal`). Never `true`: that
   * believes every client's own X-Forwarded-For.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .refine((v) => v.trim() !== 'true', 'TRUST_PROXY=true would let any client choose its IP; name the proxies or a hop count')
    .transform((v): boolean | number | string[] => {
      const value = v.trim();
      if (value === '' || value === 'false') return false;
      if (/^\d+$/.test(value)) return Number(value);
      return value.split(',').map((s) => s.trim()).filter(Boolean);
    }),
  /**
   * How long the gateway waits for a service's answer: past it, the request answers 503
   * `service_unavailable` with `Retry-After`, as for a service that is down. Above the slowest
   * answer a service gives on purpose (a turn's follow-up waits up to
   * INTERVIEWER_FOLLOW_UP_TIMEOUT_MS, 8 s by default).
   */
  SERVICE_CALL_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  /** Seals stored idempotent responses (AES-256-GCM key list). */
  STORED_RESPONSE_KEYS: keyRingSetting('STORED_RESPONSE_KEYS (or the older INTERNAL_AUTH_SECRET)', 'aes256'),
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;
export const loadGatewayConfig = () => loadConfig(GatewayConfig, serviceEnv('gateway'));
