import { sqlName } from '../../codeText/sql';
import type { SqlDialect } from './dialect';

/** Types @duckdb/node-api returns as JavaScript numbers, bigints, booleans and strings. */
const NATIVE = /^(BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|VARCHAR)$/;
/** Types read as DuckDB writes them as text (its own value objects otherwise). */
const AS_TEXT = /^(HUGEINT|UHUGEINT|DECIMAL\(\d+,\s*\d+\)|DATE|TIME|TIME WITH TIME ZONE|TIMESTAMP(_S|_MS|_NS)?|TIMESTAMP WITH TIME ZONE|UUID|INTERVAL|ENUM\(.*\))$/s;

export const duckdbDialect: SqlDialect = {
  name: 'duckdb',
  quoteIdentifier: sqlName, // standard SQL quoting, as the SQL export writes names
  types: { text: 'VARCHAR', double: 'DOUBLE', bigint: 'BIGINT' },
  cast: (expression, type) => `CAST(${expression} AS ${duckdbDialect.types[type]})`,
  hash: (values, seed) => `CAST(hash(${values.map((v) => v.sql).join(', ')}, ${seed}) >> 1 AS BIGINT)`,
  isNumeric: (type) => /^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|FLOAT|DOUBLE|DECIMAL\(\d+,\s*\d+\))$/.test(type),
  readAs(type) {
    if (NATIVE.test(type)) return 'as-is';
    return AS_TEXT.test(type) ? 'text' : null;
  },
};
