import { qualifiedName, type SqlDialect } from './dialect';
import { withoutTrailingSemicolon } from './readOnlyQuery';
import type { SourceColumnInfo } from './source';

/**
 * A dataset's rows in its source as SQL that can stand in a FROM clause as `(relation) AS q`: all of a table, or a
 * read-only query. Every statement the service runs over a dataset's rows is built on it.
 */
export function relationSql(dialect: SqlDialect, source: { table?: string; query?: string }): string {
  if (source.query !== undefined) return withoutTrailingSemicolon(source.query);
  const table = source.table as string;
  const dot = table.indexOf('.');
  return `SELECT * FROM ${dot < 0 ? qualifiedName(dialect, null, table) : qualifiedName(dialect, table.slice(0, dot), table.slice(dot + 1))}`;
}

/** The relation as a subquery; the line breaks keep a comment that ends the query from swallowing the parenthesis. */
export const subquery = (relation: string): string => `(\n${relation}\n) AS q`;

export const countSql = (relation: string): string => `SELECT count(*) AS n FROM ${subquery(relation)}`;

/**
 * The relation's rows as the service reads them into memory: each column as the driver hands it over or as the
 * database writes it as text (`readAs`), ordered by every column (after `orderFirst`, an expression over the row `q`,
 * when given) so that the same rows always make the same frame whatever order the database returns them in, and at
 * most `limit` of them.
 */
export function readRowsSql(dialect: SqlDialect, relation: string, columns: readonly SourceColumnInfo[], limit: number, orderFirst?: string): string {
  const select = columns.map((c) => {
    const column = `q.${dialect.quoteIdentifier(c.name)}`;
    return `${c.readAs === 'text' ? dialect.cast(column, 'text') : column} AS ${dialect.quoteIdentifier(c.name)}`;
  });
  const order = [...(orderFirst === undefined ? [] : [orderFirst]), ...columns.map((_, i) => String(i + 1))];
  return `SELECT ${select.join(', ')} FROM ${subquery(relation)} ORDER BY ${order.join(', ')} LIMIT ${limit}`;
}
