import type { SqlDialect } from './dialect';
import { subquery } from './relation';
import type { SourceColumnInfo } from './source';

/**
 * Rows are assigned by a seeded hash of their listed columns, never by an unseeded random(): the same rows and seed
 * always make the same split and samples, in any scan order. The hash and the filters on it are built only of what a
 * foreign scan can ship (typed hash functions, operators, CASE, IS NULL), so on a sharded table they run at the
 * shards and only the chosen rows travel. Two coprime moduli keep the test split and the sample of training rows
 * independent of each other.
 */
const TEST_MODULUS = 1_000_003;
const SAMPLE_MODULUS = 999_983;
const HASH = 'xm_row_hash';
const GROUP_HASH = 'xm_group_hash';

export interface RowSplit {
  /** Fraction of rows held out for testing. */
  testSize: number;
  /** Fraction of the training rows read into memory to fit on (1: all of them). */
  trainSample: number;
  /** Fraction of the test rows read into memory for the charts and yardsticks (the metrics use every test row). */
  testSample: number;
  seed: number;
  /** A time or group split (absent: by the row hash); see splitBy. */
  by?: SqlSplitBy | null;
}

/**
 * A split by a column in SQL: by time, the test rows are those at or after `from`, a constant SQL expression (the
 * earliest time of the latest rows); by group, a seeded hash of the group value chooses whole groups. Rows without a
 * time or group value are training rows, as in memory.
 */
export type SqlSplitBy = { time: string; from: string } | { group: string };

/**
 * The share of `rows` a hash sample of at most `limit` rows takes. Its size varies binomially around the share times
 * the rows: aiming four standard deviations below the limit keeps it within (a 5% margin did not for small samples:
 * 1,201 rows for 1,200).
 */
export const sampleShare = (limit: number, rows: number): number => Math.min(1, Math.max(1, limit - 4 * Math.sqrt(limit)) / Math.max(1, rows));

const below = (fraction: number, modulus: number) => Math.round(Math.min(1, Math.max(0, fraction)) * modulus);

/** The relation's rows with their hash; `part` keeps the test rows, the training rows, or a sample of either. */
export function splitRelation(
  dialect: SqlDialect,
  relation: string,
  columns: readonly ColumnOfRow[],
  split: RowSplit,
  part: 'test' | 'train' | 'test-sample' | 'train-sample',
): string {
  const by = split.by;
  const isTest = !by
    ? `${HASH} % ${TEST_MODULUS} < ${below(split.testSize, TEST_MODULUS)}`
    : 'time' in by
      ? `(h.${dialect.quoteIdentifier(by.time)} IS NOT NULL AND h.${dialect.quoteIdentifier(by.time)} >= ${by.from})`
      : `(${GROUP_HASH} IS NOT NULL AND ${GROUP_HASH} % ${TEST_MODULUS} < ${below(split.testSize, TEST_MODULUS)})`;
  const where = {
    test: isTest,
    train: `NOT (${isTest})`,
    'test-sample': `${isTest} AND ${HASH} % ${SAMPLE_MODULUS} < ${below(split.testSample, SAMPLE_MODULUS)}`,
    'train-sample': `NOT (${isTest}) AND ${HASH} % ${SAMPLE_MODULUS} < ${below(split.trainSample, SAMPLE_MODULUS)}`,
  }[part];
  const group = by && 'group' in by ? columns.find((c) => c.name === by.group) : undefined;
  const groupHash = group ? `, CASE WHEN q.${dialect.quoteIdentifier(group.name)} IS NOT NULL THEN ${rowHash(dialect, [group], split.seed)} END AS ${GROUP_HASH}` : '';
  const hashed = `SELECT q.*, ${rowHash(dialect, columns, split.seed)} AS ${HASH}${groupHash} FROM ${subquery(relation)}`;
  // Only the relation's own columns leave: the hash chooses rows and is no feature.
  return `SELECT ${columns.map((c) => `h.${dialect.quoteIdentifier(c.name)}`).join(', ')} FROM (${hashed}) AS h WHERE ${where}`;
}

/** A column a row hash reads: its name and the database's name of its type. */
export type ColumnOfRow = Pick<SourceColumnInfo, 'name' | 'type'>;

/** The seeded hash of the columns of the row `q` (the alias of a relation as `subquery` writes it). */
export function rowHash(dialect: SqlDialect, columns: readonly ColumnOfRow[], seed: number): string {
  return dialect.hash(columns.map((c) => ({ sql: `q.${dialect.quoteIdentifier(c.name)}`, type: c.type })), seed);
}
