import { createQueryId, type CompiledQuery, type Compilable, type Kysely } from 'kysely';

// Statements of a hot path compiled once per process (kysely's recipe "splitting query building
// and execution": execute compiled queries). Kysely builds a tree of operation nodes for every
// call, freezes it, and compiles it to SQL text; for the candidate's turn that was about a tenth
// of recruiting's CPU (docs/benchmarks.md, issue 22), to make the same few texts again and again.
// Here the query is built and compiled on its first call, with a marker for each parameter, and
// later calls only put their values where the markers were.

/** Stands for the n-th parameter while the query is built. */
class Parameter {
  constructor(readonly index: number) {}
}

/** Where each compiled parameter comes from: a caller's parameter, or a value the query itself holds. */
type Slot = { index: number } | { value: unknown };

/**
 * A statement whose SQL text is made once. `build` gets a marker for each parameter and must
 * pass them to the query builder as values (`where('id', '=', id)`, `sql\`${id}::text\``,
 * an inserted row's value): it may not look at them, and the query's shape may not depend on
 * them. A statement whose shape varies (an `in` list, a number of rows) needs the builder, and
 * a value the query computes itself (`new Date()`) is frozen at the first call: pass it in.
 * The returned function runs the statement on `db` (a pool or a transaction) and answers its
 * rows. A parameter that did not become one of the statement's parameters (put into `sql.raw`,
 * a string, or not used) fails the first call.
 */
export function compiledOnce<DB, Params extends unknown[], Row>(build: (db: Kysely<DB>, ...params: Params) => Compilable<Row>): (db: Kysely<DB>, ...params: Params) => Promise<Row[]> {
  let compiled: { query: CompiledQuery<Row>; slots: Slot[] } | undefined;
  return async (db, ...params) => {
    if (!compiled) {
      const markers = params.map((_, i) => new Parameter(i)) as Params;
      const query = build(db, ...markers).compile();
      const slots = query.parameters.map((p): Slot => (p instanceof Parameter ? { index: p.index } : { value: p }));
      const missing = markers.findIndex((_, i) => !slots.some((slot) => 'index' in slot && slot.index === i));
      if (missing >= 0) throw new Error(`compiledOnce: parameter ${missing} is not a parameter of the compiled statement`);
      compiled = { query, slots };
    }
    const { query, slots } = compiled;
    const parameters = slots.map((slot) => ('index' in slot ? params[slot.index] : slot.value));
    return (await db.executeQuery<Row>({ ...query, parameters, queryId: createQueryId() })).rows;
  };
}
