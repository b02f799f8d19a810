import type { EvaluationMetrics, FeatureInfoEntry, Metrics } from '../../contract';
import {
  CsvFrameBuilder,
  DATASET_PARTITION,
  DataFrame,
  applyPreprocessor,
  evaluateModel,
  featureImportances,
  fitModel,
  fitPreprocessor,
  partitionFrames,
  predict,
  refit,
  scanHealth,
  singlePartitionModel,
  trainTestSplit,
  type FittedPreprocessor,
  type TransparentModel,
} from '../../engine';
import { loadFrameSync, parseCsvFile, writeFrameFile } from '../datasets/frameFile';
import { finiteJson } from '../json';
import { serializeModel, deserializeModel } from './model-json';
import type {
  CsvSource,
  FitOutcome,
  FitPreprocessorTask,
  IngestOutcome,
  IngestTask,
  PartitionOutcome,
  PredictOutcome,
  PredictTask,
  RefitOutcome,
  RefitTask,
  TrainTask,
} from './tasks';

/** Thrown for input the caller can fix; the worker turns it into a 422. */
export class InputError extends Error {
  constructor(
    message: string,
    readonly field: string | null,
  ) {
    super(message);
  }
}

const METRIC_KEYS = {
  classifier: ['accuracy', 'roc_auc', 'f1', 'precision', 'recall', 'log_loss', 'brier', 'mcc', 'confusion_matrix'],
  regressor: ['r2', 'rmse', 'mae', 'mape', 'explained_variance'],
} as const;

/** Every feature of any partition, in training order. */
export function featureNames(model: TransparentModel): string[] {
  return [...new Set([...model.partitions.values()].flatMap((p) => p.features.map((f) => f.name)))];
}

export function readFrame(source: CsvSource): DataFrame {
  return 'path' in source ? loadFrameSync(source.path) : new CsvFrameBuilder().push(source.text).finish();
}

export function runIngest(task: IngestTask): IngestOutcome {
  const frame = parseCsvFile(task.path);
  writeFrameFile(task.path, frame);
  return { rows: frame.nRows, columns: frame.names };
}

export function applyPreprocessorIfAny(frame: DataFrame, fitted: unknown): DataFrame {
  return fitted ? applyPreprocessor(frame, fitted as FittedPreprocessor) : frame;
}

function summaryMetrics(model: TransparentModel, full: EvaluationMetrics): Metrics {
  const keys = METRIC_KEYS[model.modelType];
  return Object.fromEntries(keys.map((k) => [k, (full as Record<string, unknown>)[k]])) as Metrics;
}

function partitionOutcomes(model: TransparentModel, train: DataFrame, test: DataFrame): PartitionOutcome[] {
  const trainFrames = partitionFrames(model, train);
  const testFrames = partitionFrames(model, test);
  return [...model.partitions].map(([key, part]) => {
    const alone = singlePartitionModel(model, key);
    const trainRows = trainFrames.get(key) as DataFrame;
    const testRows = testFrames.get(key) as DataFrame;
    return {
      key,
      nTrain: trainRows.nRows,
      nTest: testRows.nRows,
      baseValue: part.baseValue,
      evaluation: finiteJson({ train: evaluateModel(alone, trainRows), test: evaluateModel(alone, testRows) }) as PartitionOutcome['evaluation'],
    };
  });
}

function featureInfo(model: TransparentModel, train: DataFrame, features: string[]): FeatureInfoEntry[] {
  const importance = new Map(featureImportances(model).map((f) => [f.feature, f.importance]));
  return finiteJson(
    scanHealth(train.select(features)).map((h) => ({ ...h, importance: importance.get(h.feature) ?? 0 })),
  ) as FeatureInfoEntry[];
}

function checkColumns(frame: DataFrame, names: string[], label: string): void {
  for (const name of names) {
    if (!frame.has(name)) {
      throw new InputError(`${label} has no column ${name}; its columns are: ${frame.names.join(', ')}`, name);
    }
  }
}

export function splitFrame(frame: DataFrame, target: string, testSize: number, seed: number): { train: DataFrame; test: DataFrame } {
  const split = trainTestSplit(frame.nRows, testSize, seed);
  const train = frame.take(split.train);
  const test = frame.take(split.test);
  const nonMissing = (f: DataFrame) => {
    let n = 0;
    for (let r = 0; r < f.nRows; r++) if (f.value(r, target) !== null) n++;
    return n;
  };
  if (nonMissing(test) < 2) {
    throw new InputError(
      `test_size ${testSize} leaves ${nonMissing(test)} test row(s) with a ${target} value out of ${frame.nRows}; at least 2 are needed`,
      'test_size',
    );
  }
  return { train, test };
}

function outcome(model: TransparentModel, train: DataFrame, test: DataFrame): FitOutcome {
  const features = featureNames(model);
  const trainEval = finiteJson(evaluateModel(model, train));
  const testEval = finiteJson(evaluateModel(model, test));
  const partitions = partitionOutcomes(model, train, test);
  const whole = model.partitions.get(DATASET_PARTITION);
  return {
    modelJson: serializeModel(model),
    features,
    trainMetrics: summaryMetrics(model, trainEval),
    testMetrics: summaryMetrics(model, testEval),
    featureImportances: finiteJson(featureImportances(model)),
    nTrain: partitions[0]?.nTrain ?? train.nRows,
    nTest: partitions[0]?.nTest ?? test.nRows,
    partitions,
    featureInfo: featureInfo(model, train, features),
    parameters: { ...(whole ? whole.params : model.partitions.values().next().value!.params) },
  };
}

export function runTrain(task: TrainTask): FitOutcome {
  const source = applyPreprocessorIfAny(readFrame(task.source), task.preprocessor);
  checkColumns(source, [task.target, ...(task.partitionOn ? [task.partitionOn] : []), ...task.dropColumns], task.source.label);
  let train: DataFrame;
  let test: DataFrame;
  if (task.testSource) {
    train = source;
    test = applyPreprocessorIfAny(readFrame(task.testSource), task.preprocessor);
  } else {
    ({ train, test } = splitFrame(source, task.target, task.testSize, task.seed));
  }
  const model = fitModel(train, {
    target: task.target,
    modelType: task.modelType,
    partitionOn: task.partitionOn,
    dropColumns: task.dropColumns,
    params: task.params,
  });
  if (task.testSource) {
    checkColumns(test, [model.target, ...featureNames(model)], task.testSource.label);
  }
  return outcome(model, train, test);
}

export function runRefit(task: RefitTask): RefitOutcome {
  const current = deserializeModel(task.modelJson);
  const frame = applyPreprocessorIfAny(readFrame(task.source), task.preprocessor);
  checkColumns(frame, [task.target], task.source.label);
  const kept = new Set(task.dropColumns);
  const features = (task.features ?? featureNames(current)).filter((f) => !kept.has(f));
  const result = refit(current, {
    features,
    params: task.params,
    featureParams: task.featureParams ?? undefined,
  });
  const { train, test } = splitFrame(frame, task.target, task.testSize, task.seed);
  return { ...outcome(result.model, train, test), parametersChanged: result.parametersChanged as RefitOutcome['parametersChanged'] };
}

export function runPredict(task: PredictTask): PredictOutcome {
  const model = deserializeModel(task.modelJson);
  const frame = applyPreprocessorIfAny(readFrame(task.source), task.preprocessor);
  if (frame.nRows === 0) throw new InputError(`${task.source.label} has a header but no rows to predict`, 'csv_content');
  const result = predict(model, frame, { threshold: task.threshold, explain: task.explain });
  const classifier = model.modelType === 'classifier';
  return finiteJson({
    n: result.n,
    baseValue: result.baseValue,
    baseValues: model.partitionOn ? Array.from(result.baseValues) : null,
    predictions: result.predictions,
    scores: classifier ? Array.from(result.scores) : null,
    probabilities: result.probabilities ? Array.from(result.probabilities) : null,
    contributions: result.contributions
      ? Object.fromEntries(Object.entries(result.contributions).map(([k, v]) => [k, Array.from(v)]))
      : null,
    warnings: result.warnings,
  });
}

export function runFitPreprocessor(task: FitPreprocessorTask): unknown {
  return fitPreprocessor(readFrame(task.source), task.steps);
}
