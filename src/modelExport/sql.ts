import type { FeatureTable, PartitionTables, ScoringTables, Scorer } from './scoringTables';

/** A REAL literal every SQL engine reads back as the same double. */
export function sqlNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`No SQL literal for ${value}`);
  const text = String(value);
  return /^-?\d+$/.test(text) ? `${text}.0` : text;
}

export const sqlString = (text: string): string => `'${text.replace(/'/g, "''")}'`;
export const sqlName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Column names the query adds; prefixed so they do not clash with the input's columns. */
const PARTITION = 'xm_partition';
const contributionColumn = (feature: string): string => sqlName(`xm_contribution_${feature}`);

function featureCase(f: FeatureTable): string {
  const column = sqlName(f.name);
  if (f.kind === 'categorical') {
    const whens = f.categories.map((c, i) => `WHEN ${sqlString(c)} THEN ${sqlNumber(f.scores[i])}`);
    return whens.length ? `CASE CAST(${column} AS TEXT) ${whens.join(' ')} ELSE ${sqlNumber(f.missing)} END` : sqlNumber(f.missing);
  }
  const whens = [`WHEN typeof(${column}) NOT IN ('integer', 'real') THEN ${sqlNumber(f.missing)}`];
  let last = sqlNumber(f.missing);
  f.uppers.forEach((upper, i) => {
    if (Number.isFinite(upper)) whens.push(`WHEN ${column} <= ${sqlNumber(upper)} THEN ${sqlNumber(f.scores[i])}`);
    else last = sqlNumber(f.scores[i]);
  });
  return `CASE ${whens.join(' ')} ELSE ${last} END`;
}

/** One value per partition: `CASE xm_partition WHEN 'a' THEN … ELSE <__dataset__'s> END`, or the value alone. */
export function byPartition(partitions: PartitionTables[], value: (scorer: Scorer) => string | undefined, none: string): string {
  const [dataset, ...others] = partitions;
  const fallback = value(dataset.scorer) ?? none;
  const whens = others.map((p) => [p.key, value(p.scorer) ?? none] as const).filter(([, v]) => v !== fallback);
  if (!whens.length) return fallback;
  return `CASE ${PARTITION} ${whens.map(([key, v]) => `WHEN ${sqlString(key)} THEN ${v}`).join(' ')} ELSE ${fallback} END`;
}

function calibrationCase(calibration: number[], score: string): string {
  const key = `MIN(100, MAX(0, CAST(${score} * 100 AS INTEGER)))`;
  return `CASE ${key} ${calibration.map((p, k) => `WHEN ${k} THEN ${sqlNumber(p)}`).join(' ')} END`;
}

/** A classifier's probability from its score column `score`, by the tables' link. */
export function probabilitySql(tables: ScoringTables, score: string): string {
  switch (tables.link) {
    case 'logistic':
      return `1.0 / (1.0 + EXP(-${score}))`;
    case 'calibration':
      return byPartition(tables.partitions, (s) => (s.calibration ? calibrationCase(s.calibration, score) : undefined), 'NULL');
    default:
      return `MIN(1.0, MAX(0.0, ${score}))`;
  }
}

function outputs(tables: ScoringTables): string[] {
  const labels = (tables.labels ?? [0, 1]).map((l) => (typeof l === 'number' ? sqlNumber(l) : sqlString(l)));
  const label = (condition: string) => `CASE WHEN ${condition} > 0.5 THEN ${labels[1]} ELSE ${labels[0]} END AS xm_prediction`;
  switch (tables.link) {
    case 'logistic':
      return [`${probabilitySql(tables, 'xm_score')} AS xm_probability`, label(probabilitySql(tables, 'xm_score'))];
    case 'calibration':
    case 'clip01':
      return [`${probabilitySql(tables, 'xm_score')} AS xm_probability`, label('xm_score')];
    case 'range': {
      const low = byPartition(tables.partitions, (s) => (s.range[0] === null ? undefined : sqlNumber(s.range[0])), 'NULL');
      const high = byPartition(tables.partitions, (s) => (s.range[1] === null ? undefined : sqlNumber(s.range[1])), 'NULL');
      const clipLow = low === 'NULL' ? 'xm_score' : `COALESCE(MAX(${low}, xm_score), xm_score)`;
      return [high === 'NULL' ? `${clipLow} AS xm_prediction` : `COALESCE(MIN(${high}, ${clipLow}), ${clipLow}) AS xm_prediction`];
    }
  }
}

/**
 * One SQLite query (other engines need their own test for "is a number" in place of `typeof`) over a table `input_rows` holding the feature
 * columns: one `CASE` per feature gives its contribution, their sum plus the base value is `xm_score`, and the link
 * gives `xm_probability`/`xm_prediction`. Partitioned models route each row by the partition column's text.
 */
/** The first CTE: every input row with the partition whose model scores it (`__dataset__` for an unseen value). */
export function routedCte(partitionOn: string | null, partitions: PartitionTables[]): string[] {
  const [dataset, ...others] = partitions;
  const routed = partitionOn
    ? `CASE WHEN CAST(${sqlName(partitionOn)} AS TEXT) IN (${others.map((p) => sqlString(p.key)).join(', ') || 'NULL'}) THEN CAST(${sqlName(partitionOn)} AS TEXT) ELSE '${dataset.key}' END`
    : `'${dataset.key}'`;
  return ['WITH routed AS (', `  SELECT *, ${routed} AS ${PARTITION} FROM input_rows`];
}

/** A feature's contribution expression for one model (its partitions), 0 where a partition lacks the feature. */
export function contributionSql(partitions: PartitionTables[], feature: string): string {
  return byPartition(partitions, (s) => {
    const f = s.features.find((t) => t.name === feature);
    return f ? featureCase(f) : undefined;
  }, '0.0');
}

export function binarySql(tables: ScoringTables): string {
  const [dataset] = tables.partitions;
  const linkNote: Record<ScoringTables['link'], string> = {
    logistic: 'xm_probability = 1 / (1 + EXP(-xm_score)); the positive label above 0.5',
    calibration: 'xm_probability = the calibration map at trunc(xm_score × 100); the positive label when xm_score > 0.5',
    clip01: 'xm_probability = xm_score clipped to [0, 1]; the positive label when xm_score > 0.5',
    range: 'xm_prediction = xm_score clipped to the prediction range seen in training',
  };
  return [
    `-- ${tables.title}: an XModels ${tables.modelType} (${tables.method} method) of ${tables.target}, as one SQL query.`,
    '-- SQLite dialect; reads the table input_rows (rename it to yours). Numeric bins are (lower, upper]; a value that is',
    "-- not a number (NULL, text) and an unseen category score the feature's missing-value bin.",
    '-- xm_score = xm_base_value + every xm_contribution_<feature>;',
    `-- ${linkNote[tables.link]}.`,
    ...(tables.partitionOn ? [`-- Rows are routed by ${tables.partitionOn}; an unseen value uses the ${dataset.key} model.`] : []),
    ...routedCte(tables.partitionOn, tables.partitions),
    '), contributions AS (',
    '  SELECT *,',
    `    ${byPartition(tables.partitions, (s) => sqlNumber(s.baseValue), '0.0')} AS xm_base_value${tables.features.length ? ',' : ''}`,
    ...tables.features.map((f, i) => `    ${contributionSql(tables.partitions, f)} AS ${contributionColumn(f)}${i < tables.features.length - 1 ? ',' : ''}`),
    '  FROM routed',
    '), scored AS (',
    `  SELECT *, ${['xm_base_value', ...tables.features.map(contributionColumn)].join(' + ')} AS xm_score FROM contributions`,
    ')',
    `SELECT *, ${outputs(tables).join(', ')}`,
    'FROM scored;',
    '',
  ].join('\n');
}
