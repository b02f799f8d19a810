import { splitColumn, type SplitSpec } from '../../engine';
import { sqlString } from '../../codeText/sql';
import { invalid } from '../base/errors';
import { subquery } from '../sources/relation';
import type { SourceColumnInfo, SqlSource } from '../sources/source';
import type { SqlSplitBy } from '../sources/rowSplit';

/** Database types a time split can order by besides numbers: dates and timestamps. */
const TIME_TYPE = /^(date|timestamp)/i;

/**
 * A time or group split of a dataset's rows in its source, checked against its columns and rows (null for the random
 * split), with a time split's earliest test time as the database writes it (a number for a numeric column). The
 * boundary is the time of the round(rows with a time × testSize)-th latest row, as in memory.
 */
export async function sqlSplitBy(
  source: SqlSource,
  relation: string,
  columns: readonly SourceColumnInfo[],
  split: SplitSpec | undefined,
  testSize: number,
  signal?: AbortSignal,
): Promise<{ by: SqlSplitBy; testFrom: number | string | null } | null> {
  const by = splitColumn(split);
  if (!by) return null;
  const column = columns.find((c) => c.name === by.column);
  if (!column) throw invalid(by.field, `${by.field} names no column ${by.column}; the columns are: ${columns.map((c) => c.name).join(', ')}.`);
  const name = `q.${source.dialect.quoteIdentifier(by.column)}`;
  const first = async (sql: string) => (await source.query(sql, [], { signal }))[0] ?? {};
  if (by.kind === 'group') {
    const groups = Number((await first(`SELECT COUNT(DISTINCT ${name}) AS n FROM ${subquery(relation)}`)).n);
    if (groups < 2) throw invalid(by.field, `${by.field} ${by.column} has ${groups} group${groups === 1 ? '' : 's'} (distinct values); a group split needs at least 2.`);
    return { by: { group: by.column }, testFrom: null };
  }
  const numeric = source.dialect.isNumeric(column.type);
  if (!numeric && !TIME_TYPE.test(column.type)) {
    throw invalid(by.field, `${by.field} ${by.column} is of type ${column.type}; a time split needs a column of numbers, dates or timestamps.`);
  }
  const timed = Number((await first(`SELECT COUNT(${name}) AS n FROM ${subquery(relation)}`)).n);
  const k = Math.round(timed * testSize);
  if (k === 0) throw invalid('test_size', `test_size ${testSize} of the ${timed} rows with a ${by.column} value leaves no test rows.`);
  const boundary = `(SELECT ${name} FROM ${subquery(relation)} WHERE ${name} IS NOT NULL ORDER BY ${name} DESC LIMIT 1 OFFSET ${k - 1})`;
  const text = String((await first(`SELECT ${source.dialect.cast(boundary, 'text')} AS t`)).t);
  // The boundary found once, then a constant of the column's type (its text reads back exactly): every statement of
  // the train filters by it without sorting the rows again, and a foreign scan ships the filter.
  return { by: { time: by.column, from: `CAST(${sqlString(text)} AS ${column.type})` }, testFrom: numeric ? Number(text) : text };
}
