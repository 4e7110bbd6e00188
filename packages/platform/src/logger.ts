import { pino, type DestinationStream, type Logger } from 'pino';
import { AppError, CallTimeoutError } from './errors.js';

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

/** What a log line says about an error: its class, its code, our own message, and the same of its causes. */
export interface LoggedError {
  type: string;
  code?: string;
  message?: string;
  cause?: LoggedError;
}

/** Causes followed at most this deep (a cycle of causes must not hang the logger). */
const MAX_CAUSES = 4;

/**
 * A safe, typed summary of a thrown value for a log line. Never its stack, and never a library's
 * message (node-postgres puts SQL and values in its messages, fetch the URL): only the class name,
 * a string `code` (a SQLSTATE, an errno name, a tRPC or AppError code) and the message of an
 * AppError (ours, written for clients) or a CallTimeoutError (ours: what was called, the deadline).
 */
export function loggedError(value: unknown, depth = 0): LoggedError {
  if (!(value instanceof Error)) return { type: value === null ? 'null' : typeof value };
  const summary: LoggedError = { type: value.constructor?.name || value.name || 'Error' };
  const code = (value as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') summary.code = String(code);
  if (value instanceof AppError || value instanceof CallTimeoutError) summary.message = value.message;
  if (value.cause !== undefined && depth < MAX_CAUSES) summary.cause = loggedError(value.cause, depth + 1);
  return summary;
}

/** `destination` is where lines go (stdout when absent): a test reads them back. */
export function createLogger(name: string, level = 'info', destination?: DestinationStream): Logger {
  const options = {
    name,
    level,
    redact: { paths: REDACT, censor: '[redacted]' },
    base: { service: name },
    // Every error a line carries goes through the summary; an Error given as the first argument
    // is logged under `err` too.
    serializers: { err: loggedError, error: loggedError },
  };
  return destination ? pino(options, destination) : pino(options);
}
