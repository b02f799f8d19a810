import type { SqlDialectName } from '../../modelExport';

/**
 * What differs between the SQL of the databases a dataset's rows can stay in, kept in one object per engine: a new
 * engine speaking SQL (Spark SQL, Trino, BigQuery…) is a new dialect and a driver, not new query-building code.
 */
export interface SqlDialect {
  /** The engine, also the dialect of its scoring query (the SQL export's). */
  readonly name: SqlDialectName;
  /** A name as an identifier, whatever characters or case it has. */
  quoteIdentifier(name: string): string;
  /** The SQL type names of the kinds of values the service reads and computes. */
  readonly types: { readonly text: string; readonly double: string; readonly bigint: string };
  /** `expression` converted to one of `types`. */
  cast(expression: string, type: keyof SqlDialect['types']): string;
  /**
   * A deterministic non-negative integer hash (below 2^63) of the values (NULLs too) and `seed`: the same values and
   * seed hash alike on every run and in any scan order. Built of IMMUTABLE functions, operators and CASE only, where
   * the engine has them, so that a filter on it can run where the rows are (at a shard).
   */
  hash(values: readonly TypedValue[], seed: number): string;
  /**
   * How a column of this type is read into the service: `as-is` when the driver hands its values over as JavaScript
   * numbers, bigints, booleans or strings without loss, `text` when they are read as the database writes them as text
   * (dates, decimals, UUIDs…), null for a type no model can use (lists, records, JSON, geometry, binary…).
   * `category` is the engine's type category where it has one (PostgreSQL's `typcategory`).
   */
  readAs(type: string, category?: string): 'as-is' | 'text' | null;
  /** Whether a column of this type holds numbers (so SQL over it needs no test of its values' text). */
  isNumeric(type: string): boolean;
}

/** A scalar SQL expression and the database's name of its type. */
export interface TypedValue {
  sql: string;
  type: string;
}

/** `schema.table` with each part quoted; the schema is left out when null. */
export function qualifiedName(dialect: SqlDialect, schema: string | null, table: string): string {
  return schema === null ? dialect.quoteIdentifier(table) : `${dialect.quoteIdentifier(schema)}.${dialect.quoteIdentifier(table)}`;
}
