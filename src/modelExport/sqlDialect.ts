/**
 * What the scoring query spells differently per SQL engine. The query itself (one CASE per feature, the link, the
 * routing by partition) is the same everywhere; a new engine is a new entry here.
 */
export interface SqlDialect {
  /** The engine's name as the query's header gives it. */
  readonly title: string;
  /**
   * Whether a column holds a number: not NULL, not NaN, and for text a plain decimal number (as the Python export
   * reads one). `numeric`: the column is known to have a numeric type, so its values need no test of their text.
   */
  isNumber(column: string, numeric: boolean): string;
  /** The column's number as a double, where `isNumber` holds. */
  numberValue(column: string, numeric: boolean): string;
  /** A value as text, as the model's categories and partition keys are written. */
  text(value: string): string;
  /** The whole part of a number, toward zero, as an integer. */
  truncate(value: string): string;
  /** A number literal (as `sqlNumber` writes it) typed as a double, so arithmetic on it is floating point. */
  double(literal: string): string;
  /** How a step of the query is introduced (`name AS (`): PostgreSQL would otherwise inline each step into the next, copying the large expressions of a step into every place that reads its columns. */
  step(name: string): string;
  least(a: string, b: string): string;
  greatest(a: string, b: string): string;
}

/** A plain decimal number as text (what the Python export reads as a number), as a POSIX regular expression. */
const PLAIN_NUMBER = '^\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?\\s*$';

/**
 * SQLite has no regular expressions, so `PLAIN_NUMBER` is its GLOB patterns over the text without the spaces around:
 * only digits, signs, `.` and `e`; at most one `.` and one `e`, the `.` before the `e`; a sign only first or right
 * after the `e`; a digit before the `e` (or anywhere without one) and the text ending in a digit after it.
 */
function sqlitePlainNumber(column: string): string {
  const t = `trim(${column}, ' ' || char(9, 10, 11, 12, 13))`;
  const count = (of: string) => `length(${t}) - length(${of})`;
  return [
    `${t} <> ''`,
    `${t} NOT GLOB '*[^0-9+.eE-]*'`,
    `${count(`replace(${t}, '.', '')`)} <= 1`,
    `${count(`replace(replace(${t}, 'e', ''), 'E', '')`)} <= 1`,
    `${t} NOT GLOB '*[eE]*.*'`,
    `${t} NOT GLOB '*[^eE][+-]*'`,
    `(${t} GLOB '*[0-9]*[eE]*' OR (${t} NOT GLOB '*[eE]*' AND ${t} GLOB '*[0-9]*'))`,
    `(${t} NOT GLOB '*[eE]*' OR ${t} GLOB '*[eE]*[0-9]')`,
  ].join(' AND ');
}

export const SQL_DIALECTS = {
  sqlite: {
    title: 'SQLite',
    // SQLite stores no NaN, and a column of any declared type may hold text: a CSV's `.import` makes every column
    // TEXT, so text that is a plain number is read as that number, as the Python export reads it.
    isNumber: (c, numeric) => (numeric ? `typeof(${c}) IN ('integer', 'real')` : `(typeof(${c}) IN ('integer', 'real') OR (typeof(${c}) = 'text' AND ${sqlitePlainNumber(c)}))`),
    numberValue: (c, numeric) => (numeric ? c : `CAST(${c} AS REAL)`),
    text: (v) => `CAST(${v} AS TEXT)`,
    double: (literal) => literal,
    step: (name) => `${name} AS (`,
    truncate: (v) => `CAST(${v} AS INTEGER)`,
    least: (a, b) => `MIN(${a}, ${b})`,
    greatest: (a, b) => `MAX(${a}, ${b})`,
  },
  postgres: {
    title: 'PostgreSQL',
    // A NaN equals itself in PostgreSQL. A column of unknown type is read through its text.
    isNumber: (c, numeric) => (numeric ? `CAST(${c} AS DOUBLE PRECISION) <> 'NaN'::float8` : `CAST(${c} AS TEXT) ~ '${PLAIN_NUMBER}'`),
    numberValue: (c, numeric) => `CAST(${numeric ? c : `CAST(${c} AS TEXT)`} AS DOUBLE PRECISION)`,
    text: (v) => `CAST(${v} AS TEXT)`,
    double: (literal) => `${literal}::float8`,
    step: (name) => `${name} AS MATERIALIZED (`,
    truncate: (v) => `CAST(TRUNC(${v}) AS INTEGER)`,
    least: (a, b) => `LEAST(${a}, ${b})`,
    greatest: (a, b) => `GREATEST(${a}, ${b})`,
  },
  duckdb: {
    title: 'DuckDB',
    isNumber: (c, numeric) => (numeric ? `${c} IS NOT NULL AND NOT isnan(CAST(${c} AS DOUBLE))` : `regexp_full_match(CAST(${c} AS VARCHAR), '${PLAIN_NUMBER}')`),
    numberValue: (c, numeric) => (numeric ? `CAST(${c} AS DOUBLE)` : `TRY_CAST(CAST(${c} AS VARCHAR) AS DOUBLE)`),
    text: (v) => `CAST(${v} AS VARCHAR)`,
    // A decimal literal is a DECIMAL, whose cast to DOUBLE misses the nearest double of some 16- and 17-digit numbers
    // (a value on a bin's bound would score the next bin); text is read as the nearest double.
    double: (literal) => `'${literal}'::DOUBLE`,
    step: (name) => `${name} AS (`,
    truncate: (v) => `CAST(TRUNC(${v}) AS INTEGER)`,
    least: (a, b) => `LEAST(${a}, ${b})`,
    greatest: (a, b) => `GREATEST(${a}, ${b})`,
  },
} as const satisfies Record<string, SqlDialect>;

export type SqlDialectName = keyof typeof SQL_DIALECTS;
