import { z } from 'zod';

/** Settings every process shares. Each process extends this with its own and parses once at start. */
export const BaseConfig = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  INTERNAL_AUTH_SECRET: z.string().min(32, 'INTERNAL_AUTH_SECRET must be at least 32 characters'),
});

export class ConfigError extends Error {}

/**
 * Parses `env` with `schema`, failing fast with one readable line per problem.
 * The only place a process reads its environment; the result is passed down.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
