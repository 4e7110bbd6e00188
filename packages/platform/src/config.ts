import { z } from 'zod';
import { keyRingSetting, withLegacyKeys } from './keys.js';

/** Settings every process shares. Each process extends this with its own and parses once at start. */
export const BaseConfig = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  /** Bounded waits on Postgres (CLARIFICATIONS "Postgres paused"): past them a request is a 503. */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  /** Signs service-to-service tokens (see keys.ts for the key-list format and the legacy fallback). */
  INTERNAL_TOKEN_KEYS: keyRingSetting('INTERNAL_TOKEN_KEYS (or the older INTERNAL_AUTH_SECRET)', 'secret'),
});

/** The pool's bounded waits from a process's parsed settings (createPool's `timeouts`). */
export const databaseTimeouts = (config: { DATABASE_CONNECT_TIMEOUT_MS: number; DATABASE_STATEMENT_TIMEOUT_MS: number }) => ({
  connectMs: config.DATABASE_CONNECT_TIMEOUT_MS,
  statementMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
});

export class ConfigError extends Error {}

/**
 * Parses `env` with `schema`, failing fast with one readable line per problem.
 * The only place a process reads its environment; the result is passed down. Key settings from
 * before key ids (INTERNAL_AUTH_SECRET, WEBHOOK_SECRET_KEY) still work: see withLegacyKeys.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  // An empty setting is an unset one: docker-compose passes `${OPENAI_API_KEY:-}` and the like
  // for settings left out, which would otherwise fail their schema (or pass as a key "").
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = schema.safeParse(withLegacyKeys(set));
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/**
 * The environment as one service sees it: its own connection string (`IDENTITY_DATABASE_URL`,
 * `RECRUITING_DATABASE_URL`, `INTEGRATIONS_DATABASE_URL`, `GATEWAY_DATABASE_URL`: each service's
 * own Postgres role) wins over the shared DATABASE_URL.
 */
export function serviceEnv(service: 'identity' | 'recruiting' | 'integrations' | 'gateway', env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const own = env[`${service.toUpperCase()}_DATABASE_URL`];
  return own ? { ...env, DATABASE_URL: own } : env;
}
