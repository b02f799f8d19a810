import { sqlName } from '../../codeText/sql';
import type { SqlDialect } from './dialect';

/** Types the pg driver returns as JavaScript numbers and booleans (int8 and numeric come as text, read as such). */
const NATIVE = new Set(['smallint', 'integer', 'real', 'double precision', 'boolean']);
/** typcategory: numeric, string, date/time, timespan, enum; `U` (user-defined) only for uuid. */
const AS_TEXT_CATEGORIES = new Set(['N', 'S', 'D', 'T', 'E']);
const NON_NEGATIVE = '9223372036854775807';

/**
 * A value's hash by its type with PostgreSQL's own IMMUTABLE hash functions (those of its hash indexes), which
 * postgres_fdw ships to a foreign server: no cast to text, nothing that depends on the session's time zone. A type
 * without one (an enum, whose hash is its label's oid, differs per server) is hashed as text, which is not shipped.
 */
function typedHash(value: string, type: string, seed: number): string {
  if (/^(smallint|integer|bigint)$/.test(type)) return `hashint8extended(CAST(${value} AS bigint), ${seed})`;
  if (/^(real|double precision)$/.test(type)) return `hashfloat8extended(CAST(${value} AS double precision), ${seed})`;
  if (/^numeric/.test(type)) return `hash_numeric_extended(${value}, ${seed})`;
  if (type === 'boolean') return `hashint8extended(CASE WHEN ${value} THEN 1 ELSE 0 END, ${seed})`;
  if (/^(text|character varying|character)\b/.test(type)) return `hashtextextended(CAST(${value} AS text), ${seed})`;
  if (type === 'date') return `hashint8extended(${value} - DATE '2000-01-01', ${seed})`;
  if (type === 'timestamp without time zone') return `timestamp_hash_extended(${value}, ${seed})`;
  // The interval since a fixed instant: the same instant whatever the time zone it is written in.
  if (type === 'timestamp with time zone') return `interval_hash_extended(${value} - TIMESTAMPTZ '2000-01-01 00:00:00+00', ${seed})`;
  if (type === 'time without time zone') return `time_hash_extended(${value}, ${seed})`;
  if (type === 'time with time zone') return `timetz_hash_extended(${value}, ${seed})`;
  if (type === 'interval') return `interval_hash_extended(${value}, ${seed})`;
  if (type === 'uuid') return `uuid_hash_extended(${value}, ${seed})`;
  return `hashtextextended(CAST(${value} AS text), ${seed})`;
}

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  quoteIdentifier: sqlName, // standard SQL quoting, as the SQL export writes names
  types: { text: 'text', double: 'double precision', bigint: 'bigint' },
  cast: (expression, type) => `CAST(${expression} AS ${postgresDialect.types[type]})`,
  // Each value hashed with a seed of its own (so equal values in two columns do not cancel), a NULL as 0, combined by
  // XOR: only operators, CASE and IS NULL, all of which a foreign scan ships.
  hash: (values, seed) =>
    `((${values.map((v, i) => `CASE WHEN ${v.sql} IS NULL THEN 0 ELSE ${typedHash(v.sql, v.type, seed + i)} END`).join(' # ')}) & ${NON_NEGATIVE})`,
  isNumeric: (type) => /^(smallint|integer|bigint|real|double precision|numeric(\(.*\))?)$/.test(type),
  readAs(type, category) {
    if (NATIVE.has(type)) return 'as-is';
    if ((category !== undefined && AS_TEXT_CATEGORIES.has(category)) || type === 'uuid') return 'text';
    return null;
  },
};
