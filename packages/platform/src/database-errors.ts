import { AppError } from './errors.js';
import { isStalePreparedStatement } from './prepared-statements.js';

/**
 * SQLSTATEs that say "try again", not "you sent something wrong" nor "our code is broken": the
 * transaction was rolled back by the database (class 40: serialization failure, deadlock, and the
 * sync commit-window check), the statement hit its timeout (57014), or the server is shutting down
 * or not accepting connections yet (57P01–57P03); class 08 is a lost connection.
 */
const TRANSIENT = /^(40...|57014|57P0[123]|08...)$/;
/** What node-postgres throws when it cannot reach or keep a connection. */
const TRANSIENT_NODE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isTransientDatabaseError(error: unknown): boolean {
  const code = sqlState(error);
  if (code && (TRANSIENT.test(code) || TRANSIENT_NODE.has(code))) return true;
  // A prepared statement a migration made stale: its connection is dropped, so a retry prepares it anew.
  if (isStalePreparedStatement(error)) return true;
  // node-postgres: the pool's "timeout exceeded when trying to connect", "Connection terminated …",
  // "Query read timeout", the client's own statement deadline (a paused server never answers), and
  // "… not queryable", a connection closed after that deadline.
  const message = error instanceof Error ? error.message : '';
  return /timeout exceeded when trying to connect|Connection terminated|Query read timeout|not queryable/i.test(message);
}

/** A transient database failure as the platform answers it: 503 service_unavailable, retry later. */
export const databaseUnavailable = () => new AppError('service_unavailable', 'The database is busy or unavailable; retry the request shortly.');

/**
 * The unique index or constraint a write ran into (SQLSTATE 23505), or null for any other error:
 * the writer that lost a race between its check and its write answers 409, never 500.
 */
export function uniqueViolationOf(error: unknown): string | null {
  if (sqlState(error) !== '23505') return null;
  const constraint = (error as { constraint?: unknown }).constraint;
  return typeof constraint === 'string' ? constraint : '';
}

/** A database error with a SQLSTATE that retrying does not mend (a constraint, a missing table, a bad value…). */
export function isPermanentDatabaseError(error: unknown): boolean {
  const code = sqlState(error);
  return code !== undefined && /^[0-9A-Z]{5}$/.test(code) && !isTransientDatabaseError(error);
}

/**
 * Runs a step whose failure an operator must be able to act on (an erasure step): a permanent
 * database error becomes an AppError (`internal_error`) that says what refused it — the SQLSTATE
 * and the constraint and table the database names — never the statement nor the database's own
 * message. Transient errors pass as they are (the platform answers them 503: retry).
 */
export async function explainingDatabaseRefusal<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isPermanentDatabaseError(error)) throw error;
    const { code, constraint, schema, table } = error as { code: string; constraint?: string; schema?: string; table?: string };
    const where = [constraint ? `constraint ${constraint}` : '', table ? `table ${schema ? `${schema}.` : ''}${table}` : ''].filter(Boolean).join(', ');
    throw new AppError('internal_error', `${what} could not finish: the database refused it for good (SQLSTATE ${code}${where ? `, ${where}` : ''}); retrying does not mend this.`);
  }
}
