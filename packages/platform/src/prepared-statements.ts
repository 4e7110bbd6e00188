// Statements prepared once per connection (ARCHITECTURE.md "Runtime", Data). Kysely sends
// each statement as text with its parameters, so Postgres parses, analyses and plans it on every
// call: for the short statements a request makes, that is most of their cost. Named, a statement
// is parsed once per connection and its plan cached (Postgres's own plan cache: custom plans for
// the first five calls, then the generic plan only when it costs no more). node-postgres keeps
// the names a connection has prepared and skips the Parse message for them.

/**
 * Statements named per connection at most: beyond that a new text runs unnamed, as before, so
 * a caller that builds many different texts (an `in` list of varying length) cannot grow a
 * connection's memory without bound. The pool's connections are renewed (`maxLifetimeSeconds`),
 * which starts the count afresh.
 */
export const PREPARED_PER_CONNECTION = 256;

/**
 * A prepared `select *` whose table gained a column meanwhile (a newer instance migrated during a
 * rolling deploy): Postgres refuses to run it (0A000). The call fails as transient (503, retry);
 * the connection's prepared statements are dropped with the connection, and the retry runs on a
 * fresh one.
 */
export function isStalePreparedStatement(err: unknown): boolean {
  return err instanceof Error && (err as { code?: unknown }).code === '0A000' && /cached plan must not change result type/.test(err.message);
}

type Query = (...args: unknown[]) => unknown;

/**
 * The query function of one connection, naming each statement text that has parameters. A text
 * without parameters (a migration's script, `begin`, `commit`) may hold several commands, which
 * a prepared statement cannot; it runs unnamed.
 */
export function preparingQuery(query: Query, limit = PREPARED_PER_CONNECTION): Query {
  const names = new Map<string, string>();
  return (...args: unknown[]) => {
    const [text, values] = args;
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values) && values.length > 0) {
      let name = names.get(text);
      if (name === undefined && names.size < limit) {
        name = `hl${names.size}`;
        names.set(text, name);
      }
      if (name !== undefined) return query({ name, text, values });
    }
    return query(...args);
  };
}
