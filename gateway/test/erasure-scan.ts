import assert from 'node:assert/strict';
import pg from 'pg';

/**
 * Every table of every schema (an information_schema walk) with a row whose text holds one of
 * `texts` (case-insensitive): the scan an erasure must leave empty.
 */
export async function tablesHolding(db: pg.Client, texts: string[]): Promise<string[]> {
  const tables = (await db.query<{ schema: string; table: string }>(
    `select table_schema as schema, table_name as table from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
  )).rows;
  assert.ok(['recruiting', 'integrations', 'gateway', 'identity'].every((schema) => tables.some((t) => t.schema === schema)));
  // The transcript and every evaluation version are in the scan (PRODUCT.md §12).
  assert.ok(['interview_turns', 'evaluations', 'rubric_versions'].every((table) => tables.some((t) => t.schema === 'recruiting' && t.table === table)));
  const holding: string[] = [];
  for (const { schema, table } of tables) {
    const q = `select count(*)::int as n from ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(table)} t where lower(t::text) like any($1::text[])`;
    const n = (await db.query(q, [texts.map((n) => `%${n.toLowerCase()}%`)])).rows[0].n;
    if (n > 0) holding.push(`${schema}.${table}`);
  }
  return holding;
}
