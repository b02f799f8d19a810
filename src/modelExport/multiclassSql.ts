import { commentText } from '../codeText/comment';
import { sqlName, sqlString } from '../codeText/sql';
import { scoredColumn } from './scoredColumns';
import type { MulticlassScoringTables } from './scoringTables';
import { byPartition, contributionSql, interactionSql, pairsNote, probabilitySql, readingNote, routedCte, sqlDouble, sqlTarget, type SqlTarget } from './sql';

const column = (...parts: string[]): string => sqlName(scoredColumn(...parts));

/**
 * The first of `outcomes` whose probability (the expression at the same place in `probabilities`) is at least every
 * later one's and above every earlier one's: the most probable, the first in order on a tie.
 */
export function firstMostProbable(probabilities: readonly string[], outcomes: readonly string[]): string {
  const whens = probabilities.slice(0, -1).map((p, k) => `WHEN ${probabilities.slice(k + 1).map((later) => `${p} >= ${later}`).join(' AND ')} THEN ${outcomes[k]}`);
  return `CASE ${whens.join(' ')} ELSE ${outcomes[outcomes.length - 1]} END`;
}

/**
 * One query over a table `input_rows` that scores a one-vs-rest multiclass model as the service does: per
 * class, `xm_base_value_<class>`, `xm_contribution_<class>_<feature>`, `xm_interaction_<class>_<pair>` of its pair
 * terms, `xm_score_<class>` and the normalised `xm_probability_<class>`; then `xm_prediction`, the most probable class (the first in class order on a tie).
 */
export function multiclassSql(tables: MulticlassScoringTables, target: SqlTarget = sqlTarget()): string {
  const { classes, classTables } = tables;
  const partitions = classTables[0].partitions;
  const perClass = <T>(f: (cls: string, k: number) => T): T[] => classes.map((cls, k) => f(cls, k));
  // A class's terms: every feature of any class, and the class's own pair terms.
  const terms = perClass((cls, k) => [
    ...tables.features.map((f) => ({ column: column('contribution', cls, f), sql: contributionSql(target, classTables[k].partitions, f) })),
    ...classTables[k].pairs.map((p) => ({ column: column('interaction', cls, p), sql: interactionSql(target, classTables[k].partitions, p) })),
  ]);
  const contributions = perClass((cls, k) => [
    `    ${byPartition(classTables[k].partitions, (s) => sqlDouble(target, s.baseValue), sqlDouble(target, 0))} AS ${column('base_value', cls)}`,
    ...terms[k].map((t) => `    ${t.sql} AS ${t.column}`),
  ]).flat();
  const scores = perClass((cls, k) => `${[column('base_value', cls), ...terms[k].map((t) => t.column)].join(' + ')} AS ${column('score', cls)}`);
  const pairs = classTables.some((t) => t.pairs.length > 0);
  const raw = perClass((cls, k) => `${probabilitySql(target, classTables[k], column('score', cls))} AS ${column('raw_probability', cls)}`);
  const total = perClass((cls) => column('raw_probability', cls)).join(' + ');
  const normalised = perClass(
    (cls) => `CASE WHEN xm_total > 0 THEN ${column('raw_probability', cls)} / xm_total ELSE ${sqlDouble(target, 1 / classes.length)} END AS ${column('probability', cls)}`,
  );
  return [
    `-- ${commentText(tables.title)}: an XModels multiclass classifier (one-vs-rest, ${tables.method} method) of ${commentText(tables.target)}, as one SQL query.`,
    ...readingNote(target),
    '-- Every class has its own model of that class against the rest: xm_score_<class> = xm_base_value_<class> + every',
    '-- xm_contribution_<class>_<feature>; its probability is 1 / (1 + EXP(-score)) (boosted), the calibration map at',
    '-- trunc(score × 100) or the score clipped to [0, 1] (xplainable). xm_probability_<class> divides those by their sum',
    '-- (equal shares when it is 0); xm_prediction is the most probable class, the first in class order on a tie.',
    ...(pairs ? pairsNote('xm_score_<class>', 'xm_interaction_<class>_<first × second>') : []),
    ...(tables.partitionOn ? [`-- Rows are routed by ${commentText(tables.partitionOn)}; an unseen value uses the ${commentText(partitions[0].key)} models.`] : []),
    ...routedCte(target, tables.partitionOn, partitions),
    `), ${target.dialect.step('contributions')}`,
    '  SELECT *,',
    contributions.join(',\n'),
    '  FROM routed',
    `), ${target.dialect.step('scored')}`,
    `  SELECT *, ${scores.join(', ')} FROM contributions`,
    `), ${target.dialect.step('linked')}`,
    `  SELECT *, ${raw.join(', ')} FROM scored`,
    `), ${target.dialect.step('totalled')}`,
    `  SELECT *, ${total} AS xm_total FROM linked`,
    `), ${target.dialect.step('normalised')}`,
    `  SELECT *, ${normalised.join(', ')} FROM totalled`,
    ')',
    `SELECT *, ${firstMostProbable(classes.map((cls) => column('probability', cls)), classes.map(sqlString))} AS xm_prediction`,
    'FROM normalised;',
    '',
  ].join('\n');
}
