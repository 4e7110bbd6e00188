import { BASE62 } from '@hireloop/platform';

/** SQL that makes ids of the real form (`newId`) for rows the benchmarks seed with generate_series. */

/**
 * SQL for `expr` (a bigint) as `width` base62 digits, most significant first: what `toBase62` does,
 * so seeded ids look exactly like ids the service makes and sort like the numbers they encode.
 */
export function base62Sql(expr: string, width: number): string {
  return Array.from({ length: width }, (_, i) => `substr('${BASE62}', ((${expr}) / ${(62n ** BigInt(width - 1 - i)).toString()} % 62)::int + 1, 1)`).join(' || ');
}

/** Two stable numbers below 62^7 from a text: the "random" tail of a seeded id, 7 base62 digits each. */
export const hashSql = (text: string) => {
  const part = (from: number) => `((('x' || substr(md5(${text}), ${from}, 16))::bit(64)::bigint & 9223372036854775807) % ${62 ** 7})`;
  return [part(1), part(17)] as const;
};

/**
 * An id like `newId(prefix, ms)`: 9 base62 digits of the creation time in ms, then 14 of a hash
 * (standing in for the random part). Creation times are distinct per row, so ids are unique and
 * increase with created_at.
 */
export const idSql = (prefix: string, msExpr: string, hashExpr: string) =>
  `'${prefix}_' || ${base62Sql(msExpr, 9)} || ${base62Sql(`${hashExpr}1`, 7)} || ${base62Sql(`${hashExpr}2`, 7)}`;

/** Select-list items `<name>1, <name>2` for idSql's hash. */
export const hashColumns = (text: string, name: string) => hashSql(text).map((expr, i) => `${expr} as ${name}${i + 1}`).join(', ');
