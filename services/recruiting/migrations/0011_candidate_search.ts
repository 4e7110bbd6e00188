import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
//
// The console's candidate search (contracts `SearchCandidatesQuery`): every word of the search
// begins a word of the name or e-mail, case-insensitive. Built-in full-text search with prefix
// queries on the `simple` configuration (no stemming, no stop words), so no extension is needed:
// the service's role may not create one (pg_trgm needs CREATE on the database).
// - `candidate_search_words` lower-cases and turns every run of characters that is not a letter
//   or digit into a space, on both sides, so "ann.smith+x@example.com" is the words ann, smith,
//   x, example, com and a search is split the same way;
// - `candidate_search_document` is what the GIN index holds; the list filters on the same call,
//   which Postgres inlines on both sides so the index matches;
// - `candidate_search_query` makes `'w1':* & 'w2':*` from the search's words (null when it has
//   none, which matches nothing). Words hold letters and digits only, so no tsquery syntax
//   can be injected.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function recruiting.candidate_search_words(value text) returns text
      language sql immutable parallel safe strict
      return regexp_replace(lower(value), '[^[:alnum:]]+', ' ', 'g');

    create or replace function recruiting.candidate_search_document(name text, email text) returns tsvector
      language sql immutable parallel safe
      return to_tsvector('simple'::regconfig, recruiting.candidate_search_words(name || ' ' || email));

    create or replace function recruiting.candidate_search_query(search text) returns tsquery
      language sql immutable parallel safe strict
      return (
        select to_tsquery('simple'::regconfig, string_agg(word || ':*', ' & '))
        from unnest(tsvector_to_array(to_tsvector('simple'::regconfig, recruiting.candidate_search_words(search)))) as word
      );

    create index if not exists candidates_search on recruiting.candidates
      using gin (recruiting.candidate_search_document(name, email));
  `.execute(db);
}
