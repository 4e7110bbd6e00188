import { z } from 'zod';
import { AuditRetentionDays, BaseConfig, keyRingSetting, loadConfig, serviceEnv } from '@hireloop/platform';
import type { LoginThrottlePolicy } from './sessions/login-throttle.js';

export const IdentityConfig = BaseConfig.extend({
  IDENTITY_PORT: z.coerce.number().int().default(3101),
  HOST: z.string().default('127.0.0.1'),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).default(12),
  // Console-login throttling (PRODUCT.md §11): failures per submitted e-mail and per client IP.
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(100),
  LOGIN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  LOGIN_LOCKOUT_SECONDS: z.coerce.number().int().min(1).default(30),
  LOGIN_LOCKOUT_MAX_SECONDS: z.coerce.number().int().min(1).default(900),
  /** Signs list cursors (key list, newest first: `c2:<secret>,c1:<old>`). */
  CURSOR_KEYS: keyRingSetting('CURSOR_KEYS (or the older INTERNAL_AUTH_SECRET)', 'secret'),
  /** Audit rows (identity.audit_events) are purged after this. */
  AUDIT_RETENTION_DAYS: AuditRetentionDays,
  /** GET /audit-events merges the audit rows of the other services, read through their routers. */
  RECRUITING_URL: z.url().default('http://127.0.0.1:3102'),
  INTEGRATIONS_URL: z.url().default('http://127.0.0.1:3103'),
});
export type IdentityConfig = z.infer<typeof IdentityConfig>;

export const loadIdentityConfig = () => loadConfig(IdentityConfig, serviceEnv('identity'));

export const loginThrottlePolicy = (config: IdentityConfig): LoginThrottlePolicy => ({
  maxFailuresPerEmail: config.LOGIN_MAX_FAILURES,
  maxFailuresPerIp: config.LOGIN_MAX_FAILURES_PER_IP,
  windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
  lockoutSeconds: config.LOGIN_LOCKOUT_SECONDS,
  maxLockoutSeconds: config.LOGIN_LOCKOUT_MAX_SECONDS,
});
