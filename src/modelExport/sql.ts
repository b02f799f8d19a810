import { commentText } from '../codeText/comment';
import { sqlName, sqlString } from '../codeText/sql';
import { scoredColumn } from './scoredColumns';
import type { AxisTable, FeatureTable, PairTable, PartitionTables, ScoringTables, Scorer } from './scoringTables';
import { SQL_DIALECTS, type SqlDialect, type SqlDialectName } from './sqlDialect';

/**
 * How to write the query: the engine's dialect, the columns known to have a numeric type (no per-row type test), and
 * the rows it reads (a table's name, or a parenthesised query with an alias).
 */
export interface SqlTarget {
  dialect: SqlDialect;
  numericColumns: ReadonlySet<string>;
  from: string;
  /** A binary classifier predicts its positive label above this (its probability, or the reference method's score). */
  threshold: number;
}

export interface SqlTargetOptions {
  numericColumns?: Iterable<string>;
  from?: string;
  threshold?: number;
}

export function sqlTarget(dialect: SqlDialectName = 'sqlite', options: SqlTargetOptions = {}): SqlTarget {
  return { dialect: SQL_DIALECTS[dialect], numericColumns: new Set(options.numericColumns ?? []), from: options.from ?? 'input_rows', threshold: options.threshold ?? 0.5 };
}

/** A REAL literal every SQL engine reads back as the same double. */
export function sqlNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`No SQL literal for ${value}`);
  const text = String(value);
  return /^-?\d+$/.test(text) ? `${text}.0` : text;
}

/** A number literal in the target's dialect, typed as a double. */
export const sqlDouble = (target: SqlTarget, value: number): string => target.dialect.double(sqlNumber(value));

/** The header lines that say what the query reads and how it reads a value. */
export function readingNote(target: SqlTarget): string[] {
  return [
    `-- ${target.dialect.title} dialect; reads the table input_rows (rename it to yours). Numeric bins are (lower, upper]; text that`,
    "-- is a plain decimal number (as sqlite3's .import stores a CSV's numbers) is that number; NULL, other text and an unseen",
    "-- category score the feature's missing-value bin.",
  ];
}

/** Column names the query adds; prefixed so they do not clash with the input's columns. */
const PARTITION = 'xm_partition';
const contributionColumn = (feature: string): string => sqlName(scoredColumn('contribution', feature));
const interactionColumn = (pair: string): string => sqlName(scoredColumn('interaction', pair));

function featureCase(target: SqlTarget, f: FeatureTable): string {
  const column = sqlName(f.name);
  if (f.kind === 'categorical') {
    const whens = f.categories.map((c, i) => `WHEN ${sqlString(c)} THEN ${sqlDouble(target, f.scores[i])}`);
    return whens.length ? `CASE ${target.dialect.text(column)} ${whens.join(' ')} ELSE ${sqlDouble(target, f.missing)} END` : sqlDouble(target, f.missing);
  }
  const numeric = target.numericColumns.has(f.name);
  const value = target.dialect.numberValue(column, numeric);
  const finite = f.uppers.filter((upper) => Number.isFinite(upper)).length;
  const above = finite < f.uppers.length ? f.scores[finite] : f.missing;
  // Neighbouring bins with one score are one step: only the edges where the score changes are tested.
  const steps = f.uppers.slice(0, finite).flatMap((upper, i) => (f.scores[i] === (i + 1 < finite ? f.scores[i + 1] : above) ? [] : [{ upper, score: f.scores[i] }]));
  const bins = binSearch(target, value, steps, 0, steps.length, sqlDouble(target, above));
  return `CASE WHEN ${target.dialect.isNumber(column, numeric)} THEN ${bins} ELSE ${sqlDouble(target, f.missing)} END`;
}

/**
 * The score of the first of steps [from, to) whose upper edge `value` is at most (`above` past them all), as a
 * balanced tree of CASEs: a row is tested against log2 of a feature's edges, not half of them in turn.
 */
function binSearch(target: SqlTarget, value: string, steps: readonly { upper: number; score: number }[], from: number, to: number, above: string): string {
  if (from === to) return above;
  const middle = (from + to) >> 1;
  const atMost = binSearch(target, value, steps, from, middle, sqlDouble(target, steps[middle].score));
  return `CASE WHEN ${value} <= ${sqlDouble(target, steps[middle].upper)} THEN ${atMost} ELSE ${binSearch(target, value, steps, middle + 1, to, above)} END`;
}

/**
 * A CASE over the bin a row's value of a pair term's axis falls in, whose branch for bin b is `valueOf(b)`: its
 * value bins in turn (a handful), then the missing-value bin for a value that is not a number or an unseen category.
 */
function axisCase(target: SqlTarget, axis: AxisTable, valueOf: (bin: number) => string): string {
  const column = sqlName(axis.feature);
  if (axis.kind === 'categorical') {
    const value = target.dialect.text(column);
    const test = (group: string[]) => (group.length === 1 ? `= ${sqlString(group[0])}` : `IN (${group.map(sqlString).join(', ')})`);
    const whens = axis.groups.flatMap((group, b) => (group.length ? [`WHEN ${value} ${test(group)} THEN ${valueOf(b)}`] : []));
    return whens.length ? `CASE ${whens.join(' ')} ELSE ${valueOf(axis.groups.length)} END` : valueOf(axis.groups.length);
  }
  const numeric = target.numericColumns.has(axis.feature);
  const value = target.dialect.numberValue(column, numeric);
  // The last value bin is open-ended: a number above every finite bound falls in it.
  const open = axis.uppers.length - 1;
  const whens = axis.uppers.slice(0, open).map((upper, b) => `WHEN ${value} <= ${sqlDouble(target, upper)} THEN ${valueOf(b)}`);
  const bins = whens.length ? `CASE ${whens.join(' ')} ELSE ${valueOf(open)} END` : valueOf(open);
  return `CASE WHEN ${target.dialect.isNumber(column, numeric)} THEN ${bins} ELSE ${valueOf(axis.uppers.length)} END`;
}

/** A pair term's cell as nested CASEs: the first feature's bin picks a row of cells, the second's bin a cell of it. */
function pairCase(target: SqlTarget, pair: PairTable): string {
  return axisCase(target, pair.axes[0], (a) => axisCase(target, pair.axes[1], (b) => sqlDouble(target, pair.cells[a][b])));
}

/** One value per partition: `CASE xm_partition WHEN 'a' THEN … ELSE <__dataset__'s> END`, or the value alone. */
export function byPartition(partitions: PartitionTables[], value: (scorer: Scorer) => string | undefined, none: string): string {
  const [dataset, ...others] = partitions;
  const fallback = value(dataset.scorer) ?? none;
  const whens = others.map((p) => [p.key, value(p.scorer) ?? none] as const).filter(([, v]) => v !== fallback);
  if (!whens.length) return fallback;
  return `CASE ${PARTITION} ${whens.map(([key, v]) => `WHEN ${sqlString(key)} THEN ${v}`).join(' ')} ELSE ${fallback} END`;
}

function calibrationCase(target: SqlTarget, calibration: number[], score: string): string {
  const { least, greatest, truncate } = target.dialect;
  const key = least('100', greatest('0', truncate(`${score} * 100`)));
  return `CASE ${key} ${calibration.map((p, k) => `WHEN ${k} THEN ${sqlDouble(target, p)}`).join(' ')} END`;
}

/** A classifier's probability from its score column `score`, by the tables' link. */
export function probabilitySql(target: SqlTarget, tables: ScoringTables, score: string): string {
  switch (tables.link) {
    case 'logistic':
      return `1.0 / (1.0 + EXP(-${score}))`;
    case 'calibration':
      return byPartition(tables.partitions, (s) => (s.calibration ? calibrationCase(target, s.calibration, score) : undefined), 'NULL');
    default:
      return target.dialect.least('1.0', target.dialect.greatest('0.0', score));
  }
}

function outputs(target: SqlTarget, tables: ScoringTables): string[] {
  const { least, greatest } = target.dialect;
  const labels = (tables.labels ?? [0, 1]).map((l) => (typeof l === 'number' ? sqlDouble(target, l) : sqlString(l)));
  const label = (condition: string) => `CASE WHEN ${condition} > ${sqlNumber(target.threshold)} THEN ${labels[1]} ELSE ${labels[0]} END AS xm_prediction`;
  switch (tables.link) {
    case 'logistic':
      return [`${probabilitySql(target, tables, 'xm_score')} AS xm_probability`, label(probabilitySql(target, tables, 'xm_score'))];
    case 'calibration':
    case 'clip01':
      return [`${probabilitySql(target, tables, 'xm_score')} AS xm_probability`, label('xm_score')];
    case 'exp': {
      if (tables.exposure === null) return ['EXP(xm_score) AS xm_prediction'];
      const column = sqlName(tables.exposure);
      const numeric = target.numericColumns.has(tables.exposure);
      const value = target.dialect.numberValue(column, numeric);
      return [`EXP(xm_score) * CASE WHEN ${target.dialect.isNumber(column, numeric)} AND ${value} > 0 THEN ${value} ELSE 1.0 END AS xm_prediction`];
    }
    case 'range': {
      const low = byPartition(tables.partitions, (s) => (s.range[0] === null ? undefined : sqlDouble(target, s.range[0])), 'NULL');
      const high = byPartition(tables.partitions, (s) => (s.range[1] === null ? undefined : sqlDouble(target, s.range[1])), 'NULL');
      const clipLow = low === 'NULL' ? 'xm_score' : `COALESCE(${greatest(low, 'xm_score')}, xm_score)`;
      return [high === 'NULL' ? `${clipLow} AS xm_prediction` : `COALESCE(${least(high, clipLow)}, ${clipLow}) AS xm_prediction`];
    }
  }
}

/** The first CTE: every input row with the partition whose model scores it (`__dataset__` for an unseen value). */
export function routedCte(target: SqlTarget, partitionOn: string | null, partitions: PartitionTables[]): string[] {
  const [dataset, ...others] = partitions;
  const key = partitionOn && target.dialect.text(sqlName(partitionOn));
  const routed = key
    ? `CASE WHEN ${key} IN (${others.map((p) => sqlString(p.key)).join(', ') || 'NULL'}) THEN ${key} ELSE ${sqlString(dataset.key)} END`
    : sqlString(dataset.key);
  // Without partitions the step only names one model: it is left for the database to inline, never to copy every row.
  return [`WITH ${key ? target.dialect.step('routed') : 'routed AS ('}`, `  SELECT *, ${routed} AS ${PARTITION} FROM ${target.from}`];
}

/** A feature's contribution expression for one model (its partitions), 0 where a partition lacks the feature. */
export function contributionSql(target: SqlTarget, partitions: PartitionTables[], feature: string): string {
  return byPartition(partitions, (s) => {
    const f = s.features.find((t) => t.name === feature);
    return f ? featureCase(target, f) : undefined;
  }, sqlDouble(target, 0));
}

/** A pair term's contribution expression for one model (its partitions), 0 where a partition lacks the pair. */
export function interactionSql(target: SqlTarget, partitions: PartitionTables[], pair: string): string {
  return byPartition(partitions, (s) => {
    const p = s.pairs.find((t) => t.name === pair);
    return p ? pairCase(target, p) : undefined;
  }, sqlDouble(target, 0));
}

/** How the query's header explains the pair terms' columns (`column`) that the `score` column adds, when a model has them. */
export const pairsNote = (score: string, column: string): string[] => [
  `-- ${score} also adds every ${column}: a pair term, the cell of its two features' coarse bins`,
  "-- (a value that is not a number and an unseen category fall in a feature's missing-value bin, the last).",
];

/**
 * One query over a table `input_rows` holding the feature columns: one `CASE` per feature gives its contribution (and
 * nested ones per pair term its cell), their sum plus the base value is `xm_score`, and the link gives
 * `xm_probability`/`xm_prediction`. Partitioned models route each row by the partition column's text.
 */
export function binarySql(tables: ScoringTables, target: SqlTarget = sqlTarget()): string {
  const [dataset] = tables.partitions;
  const terms = [
    ...tables.features.map((f) => ({ column: contributionColumn(f), sql: contributionSql(target, tables.partitions, f) })),
    ...tables.pairs.map((p) => ({ column: interactionColumn(p), sql: interactionSql(target, tables.partitions, p) })),
  ];
  const linkNote: Record<ScoringTables['link'], string> = {
    logistic: `xm_probability = 1 / (1 + EXP(-xm_score)); the positive label above ${target.threshold}`,
    calibration: `xm_probability = the calibration map at trunc(xm_score × 100); the positive label when xm_score > ${target.threshold}`,
    clip01: `xm_probability = xm_score clipped to [0, 1]; the positive label when xm_score > ${target.threshold}`,
    range: 'xm_prediction = xm_score clipped to the prediction range seen in training',
    exp: `xm_prediction = EXP(xm_score) × the row's exposure${tables.exposure === null ? '' : ` (${commentText(tables.exposure)}; 1 where it is missing or not positive)`}`,
  };
  return [
    `-- ${commentText(tables.title)}: an XModels ${tables.modelType} (${tables.method} method) of ${commentText(tables.target)}, as one SQL query.`,
    ...readingNote(target),
    '-- xm_score = xm_base_value + every xm_contribution_<feature>;',
    `-- ${linkNote[tables.link]}.`,
    ...(tables.pairs.length ? pairsNote('xm_score', 'xm_interaction_<first × second>') : []),
    ...(tables.partitionOn ? [`-- Rows are routed by ${commentText(tables.partitionOn)}; an unseen value uses the ${commentText(dataset.key)} model.`] : []),
    ...routedCte(target, tables.partitionOn, tables.partitions),
    `), ${target.dialect.step('contributions')}`,
    '  SELECT *,',
    `    ${byPartition(tables.partitions, (s) => sqlDouble(target, s.baseValue), sqlDouble(target, 0))} AS xm_base_value${terms.length ? ',' : ''}`,
    ...terms.map((t, i) => `    ${t.sql} AS ${t.column}${i < terms.length - 1 ? ',' : ''}`),
    '  FROM routed',
    `), ${target.dialect.step('scored')}`,
    `  SELECT *, ${['xm_base_value', ...terms.map((t) => t.column)].join(' + ')} AS xm_score FROM contributions`,
    ')',
    `SELECT *, ${outputs(target, tables).join(', ')}`,
    'FROM scored;',
    '',
  ].join('\n');
}
