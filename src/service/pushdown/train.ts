import type { Dataset, DatasetSource, EvaluationMetrics, Metrics, RegressorEvaluationMetrics, TrainRequestParsed } from '../../contract';
import { classifierCurves, type Label, type MulticlassModel, type SplitSpec, type TransparentModel } from '../../engine';
import { sqlName, sqlString } from '../../codeText/sql';
import { exportTables, scoredColumn, SQL_DIALECTS, toSql, type SqlDialect as ScoringDialect } from '../../modelExport';
import type { ServiceContext } from '../http/context';
import { removeEverywhere } from '../datasetFiles/fileCache';
import { datasetPath } from '../datasetFiles/files';
import { datasetRelation, type DatasetRelation } from '../datasets/datasetRelation';
import { sourceColumns, storeRelationFrame } from '../datasets/sourceDataset';
import { invalid } from '../base/errors';
import { partPath } from '../base/scratchFiles';
import { findCurrentDataset } from '../datasets/fileDataset';
import { sourceApiError } from '../sources/apiErrors';
import { withoutTrailingSemicolon } from '../sources/readOnlyQuery';
import { countSql, subquery } from '../sources/relation';
import type { SourceColumnInfo, SqlSource } from '../sources/source';
import type { CsvSource } from '../training/tasks';
import { classifierHistogramsInSql, classifierMetricsInSql, multiclassHistogramsInSql, multiclassMetricsInSql, regressorMetricsInSql, residualBinsInSql } from './sqlMetrics';
import { rowHash, sampleShare, splitRelation, type RowSplit } from '../sources/rowSplit';
import { sqlSplitBy } from './splitBy';

/**
 * The rows a pushdown fit reads: a share of the in-memory budget for the training rows it learns from and the test
 * rows its charts and yardsticks use, and at most so many whatever the budget: per-feature steps over at most a few
 * hundred bins are as good from a million rows as from more (`npm run bench -- sources`), and the memory is not.
 */
const SAMPLES = { 'train-sample': { share: 0.8, most: 1_000_000 }, 'test-sample': { share: 0.2, most: 100_000 } } as const;

/**
 * A fit where the rows live: the training rows are split from the test rows in the source by a seeded hash of each
 * row; a reproducible sample of training rows (all of them when they fit the in-memory budget) is read to fit on,
 * with a sample of test rows for the charts and yardsticks; the test metrics are then computed in the source over
 * every test row, from the model's own SQL scoring. The service holds at most the budget's rows, whatever the
 * source's size.
 */
export interface PushdownFit {
  train: CsvSource;
  test: CsvSource;
  /** The dataset's source as the version records it; null for an uploaded file. */
  datasetSource: DatasetSource | null;
  /** A time split: the earliest time of the test rows, as the source writes it. */
  testFrom: number | string | null;
  /**
   * The model's test metrics over every test row in the source, and its evaluation over them too: a classifier's
   * curves (per class for a multiclass model), a regressor's residual histogram; the predicted-against-actual points
   * a regressor's evaluation also holds stay the first of the sample's.
   */
  testMetrics(model: TransparentModel | MulticlassModel, signal?: AbortSignal): Promise<TestInSource>;
  /** Removes the samples' files. */
  discard(): Promise<void>;
}

/** Test metrics computed where the rows are, on `nTest` rows, with the evaluation drawn from those rows when there is one. */
export interface TestInSource {
  metrics: Metrics;
  nTest: number;
  evaluation: Exclude<EvaluationMetrics, RegressorEvaluationMetrics> | Omit<RegressorEvaluationMetrics, 'charts'>;
}

/** Reports a train's progress (0–100) and the step it is on. */
export type TrainProgress = (percent: number, step: string) => void;

/** The share of a pushdown train's progress each sample's scan takes (the fit and the metrics take the rest). */
const SCAN_PROGRESS = { 'train-sample': [2, 45], 'test-sample': [45, 55] } as const;

export async function preparePushdownFit(
  ctx: ServiceContext,
  dataset: Dataset,
  located: DatasetRelation,
  options: { testSize: number; seed: number; split?: SplitSpec; field: string; signal?: AbortSignal; progress?: TrainProgress },
): Promise<PushdownFit> {
  const { source, relation } = located;
  // The samples are stored as datasets are (their frames beside a CSV path), under scratch names no dataset has, which
  // the next start removes when this service is killed before `discard`.
  const paths: Record<keyof typeof SAMPLES, string> = {
    'train-sample': partPath(datasetPath(ctx.dataDir, 'pushdown-train-sample')),
    'test-sample': partPath(datasetPath(ctx.dataDir, 'pushdown-test-sample')),
  };
  const discard = async () => {
    for (const path of Object.values(paths)) await removeEverywhere(null, path);
  };
  try {
    const columns = await sourceColumns(source, relation, dataset, options.field, options.signal);
    const limitOf = (part: keyof typeof SAMPLES) => Math.min(Math.ceil(SAMPLES[part].share * ctx.maxRowsInMemory), SAMPLES[part].most);
    const by = await sqlSplitBy(source, relation, columns, options.split, options.testSize, options.signal);
    // A time or group split's share of test rows is known only once counted (ties, groups of any size).
    const counted = by ? await countTestRows(source, splitRelation(source.dialect, relation, columns, { testSize: options.testSize, seed: options.seed, trainSample: 1, testSample: 1, by: by.by }, 'test'), options.signal) : null;
    const trainRows = Math.max(1, counted === null ? dataset.rows * (1 - options.testSize) : dataset.rows - counted);
    const testRows = Math.max(1, counted ?? dataset.rows * options.testSize);
    const split: RowSplit = {
      testSize: options.testSize,
      seed: options.seed,
      by: by?.by,
      trainSample: sampleShare(limitOf('train-sample'), trainRows),
      testSample: sampleShare(limitOf('test-sample'), testRows),
    };
    const sample = async (part: keyof typeof SAMPLES): Promise<CsvSource> => {
      const path = paths[part];
      const limit = limitOf(part);
      const [from, to] = SCAN_PROGRESS[part];
      const expected = Math.max(1, Math.min(limit, (part === 'train-sample' ? trainRows * split.trainSample : testRows * split.testSample)));
      const step = `reading a sample of the ${part === 'train-sample' ? 'training' : 'test'} rows where they live (${located.where})`;
      options.progress?.(from, step);
      const rows = await storeRelationFrame(ctx, source, {
        relation: splitRelation(source.dialect, relation, columns, split, part),
        columns,
        path,
        limit,
        // In the order of their hash, which is the same in any copy of the rows (the fit depends on the order), and
        // is no order of any column's (the fit's early-stopping rows are a share of them).
        orderFirst: rowHash(source.dialect, columns, split.seed),
        tooMany: (n) => invalid(options.field, `The ${part.replace('-', ' ')} of dataset ${dataset.name} came to ${n} rows, more than ${limit}.`, 'Train again; if it happens again, start the service with a larger --max-rows-in-memory.'),
        signal: options.signal,
        onRows: (n) => options.progress?.(from + (to - from) * Math.min(1, n / expected), step),
      });
      if (rows === 0) throw invalid('test_size', `test_size ${options.testSize} leaves no ${part === 'test-sample' ? 'test' : 'training'} rows in dataset ${dataset.name} (${dataset.rows} rows).`);
      return { path, label: `The ${part.replace('-', ' ')} of dataset ${dataset.name} (${dataset.dataset_id})` };
    };
    const train = await sample('train-sample');
    const test = await sample('test-sample');
    return {
      train,
      test,
      datasetSource: located.datasetSource,
      testFrom: by?.testFrom ?? null,
      testMetrics: (model, signal) => testMetricsInSource(source, splitRelation(source.dialect, relation, columns, split, 'test'), columns, model, signal),
      discard,
    };
  } catch (error) {
    await discard();
    throw sourceApiError(error, options.field, located.where);
  }
}

async function countTestRows(source: SqlSource, testRows: string, signal?: AbortSignal): Promise<number> {
  return Number((await source.query(countSql(testRows), [], { signal }))[0]?.n);
}

async function testMetricsInSource(
  source: SqlSource,
  testRows: string,
  columns: readonly SourceColumnInfo[],
  model: TransparentModel | MulticlassModel,
  signal?: AbortSignal,
): Promise<TestInSource> {
  const scoring = SQL_DIALECTS[source.dialect.name];
  const numeric = columns.filter((c) => source.dialect.isNumeric(c.type)).map((c) => c.name);
  const scored = subquery(withoutTrailingSemicolon(toSql(exportTables(model, model.target), source.dialect.name, { numericColumns: numeric, from: subquery(testRows) })));
  const target = source.dialect.quoteIdentifier(model.target);
  const targetNumeric = numeric.includes(model.target);
  const is = (label: Label) => labelTest(scoring, target, targetNumeric, label);
  const queryRows = (sql: string) => source.query(sql, [], { signal });
  if (model.modelType === 'multiclass') {
    // The classes are the target's values as the engine writes them: numbers when it read the target as numbers.
    const numberClasses = model.classes.every((c) => Number.isFinite(Number(c)) && String(Number(c)) === c);
    const y = `CASE ${model.classes.map((c, k) => `WHEN ${is(numberClasses ? Number(c) : c)} THEN ${k}`).join(' ')} END`;
    const probabilities = model.classes.map((c, k) => `${sqlName(scoredColumn('probability', c))} AS p_${k}`);
    const rows = `SELECT ${y} AS y, ${probabilities.join(', ')} FROM ${scored}`;
    const { metrics, nTest, perClass } = await multiclassMetricsInSql(scoring, rows, model.classes, queryRows);
    const curves = await multiclassHistogramsInSql(scoring, rows, model.classes, queryRows);
    return { metrics, nTest, evaluation: { ...metrics, per_class: perClass.map((c, k) => ({ ...c, roc: classifierCurves(curves[k]).roc })) } };
  }
  if (model.modelType === 'regressor') {
    const y = `CASE WHEN ${scoring.isNumber(target, targetNumeric)} THEN ${scoring.numberValue(target, targetNumeric)} END`;
    const rows = `SELECT ${y} AS y, xm_prediction AS yhat FROM ${scored}`;
    const { metrics, nTest } = await regressorMetricsInSql(scoring, rows, queryRows);
    return { metrics, nTest, evaluation: { ...metrics, residual_bins: await residualBinsInSql(scoring, rows, queryRows) } };
  }
  const [negative, positive] = model.targetLabels as [Label, Label];
  const y = `CASE WHEN ${is(positive)} THEN 1 WHEN ${is(negative)} THEN 0 END`;
  const rows = `SELECT ${y} AS y, xm_probability AS p FROM ${scored}`;
  const { metrics, nTest } = await classifierMetricsInSql(scoring, rows, queryRows);
  return { metrics, nTest, evaluation: { ...metrics, ...classifierCurves(await classifierHistogramsInSql(scoring, rows, queryRows), [negative, positive]) } };
}

/** Whether the target holds `label`: as a number for a numeric label (as the engine reads one), else as text. */
function labelTest(scoring: ScoringDialect, target: string, numeric: boolean, label: Label): string {
  if (typeof label === 'number') return `(${scoring.isNumber(target, numeric)} AND ${scoring.numberValue(target, numeric)} = ${label})`;
  return `${scoring.text(target)} = ${sqlString(label)}`;
}

/**
 * The pushdown fit a train request asks for, or null to fit in memory: `pushdown` always (on a dataset whose rows
 * stay in a database), `auto` when such a dataset has more rows than the service reads into memory.
 */
export async function pushdownFitFor(
  ctx: ServiceContext,
  teamId: string,
  body: Pick<TrainRequestParsed, 'execution' | 'dataset_id' | 'preprocessor_version_id' | 'test_dataset_id' | 'test_size' | 'seed' | 'split' | 'objective' | 'weight_column' | 'exposure_column'>,
  signal?: AbortSignal,
  progress?: TrainProgress,
): Promise<PushdownFit | null> {
  if (body.execution === 'in_memory') return null;
  const dataset = body.dataset_id ? await findCurrentDataset(ctx, teamId, body.dataset_id, 'dataset_id') : null;
  const rows = dataset ? await datasetRelation(ctx, dataset, 'dataset_id') : null;
  if (body.execution === 'auto' && !(rows && dataset && dataset.rows > ctx.maxRowsInMemory)) return null;
  if (!rows || !dataset) {
    throw invalid(
      'execution',
      `execution "pushdown" fits where the rows live, so it needs a dataset_id of a dataset registered from a connection's table or query, or of an uploaded Parquet file with more rows than the service reads into memory${dataset ? `; dataset ${dataset.name} was uploaded and is read into memory` : ''}.`,
      'Register the data with POST /v1/datasets {source: {connection, table}}, or train with execution "in_memory".',
    );
  }
  const inMemoryOnly = body.preprocessor_version_id
    ? 'preprocessor_version_id'
    : body.test_dataset_id
      ? 'test_dataset_id'
      : body.weight_column
        ? 'weight_column'
        : body.exposure_column
          ? 'exposure_column'
          : body.objective && body.objective !== 'squared_error' && body.objective !== 'log_loss'
            ? 'objective'
            : null;
  if (inMemoryOnly) {
    throw invalid(inMemoryOnly, `${inMemoryOnly} is not available with execution "pushdown": the model is scored in the source, on its own columns.`, 'Leave it out, or train with execution "in_memory".');
  }
  return preparePushdownFit(ctx, dataset, rows, { testSize: body.test_size, seed: body.seed, split: body.split, field: 'dataset_id', signal, progress });
}
