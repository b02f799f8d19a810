import { sqlName } from '../../codeText/sql';
import type { SqlDialect } from './dialect';

/** Types the pg driver returns as JavaScript numbers and booleans (int8 and numeric come as text, read as such). */
const NATIVE = new Set(['smallint', 'integer', 'real', 'double precision', 'boolean']);
/** typcategory: numeric, string, date/time, timespan, enum; `U` (user-defined) only for uuid. */
const AS_TEXT_CATEGORIES = new Set(['N', 'S', 'D', 'T', 'E']);

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  quoteIdentifier: sqlName, // standard SQL quoting, as the SQL export writes names
  types: { text: 'text', double: 'double precision', bigint: 'bigint' },
  cast: (expression, type) => `CAST(${expression} AS ${postgresDialect.types[type]})`,
  hash: (expression, seed) => `(hashtextextended(CAST(${expression} AS text), ${seed}) & 9223372036854775807)`,
  isNumeric: (type) => /^(smallint|integer|bigint|real|double precision|numeric(\(.*\))?)$/.test(type),
  readAs(type, category) {
    if (NATIVE.has(type)) return 'as-is';
    if ((category !== undefined && AS_TEXT_CATEGORIES.has(category)) || type === 'uuid') return 'text';
    return null;
  },
};
