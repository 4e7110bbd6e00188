import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths never written to a log: credentials and secrets of every kind. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'headers.authorization',
  'headers.cookie',
  '*.key',
  '*.secret',
  '*.password',
  '*.token',
  'key',
  'secret',
  'password',
  'token',
];

export function createLogger(name: string, level = 'info'): Logger {
  return pino({ name, level, redact: { paths: REDACT, censor: '[redacted]' }, base: { service: name } });
}
