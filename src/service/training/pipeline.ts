import type { Baseline, DroppedClass, EvaluationMetrics, FeatureInfoEntry, Metrics, RareClasses, SplitMetrics } from '../../contract';
import {
  CsvFrameBuilder,
  MAX_CLASSES,
  MIN_CLASS_ROWS,
  DATASET_PARTITION,
  DataFrame,
  applyPreprocessor,
  evaluateBaselines,
  evaluateModel,
  fittedSubject,
  leftOutColumns,
  plannedMulticlassSubject,
  plannedSubject,
  featureImportances,
  fitModelParallel,
  fitMulticlassParallel,
  fitPreprocessor,
  objectiveParameters,
  refitMulticlass,
  partitionFrames,
  rareClasses,
  refit,
  scanHealth,
  singlePartitionModel,
  targetClassCounts,
  splitRows,
  withoutClasses,
  type BaselineSubject,
  type ColumnHealth,
  type FitOptions,
  type FittedPreprocessor,
  type MulticlassModel,
  type PartitionModel,
  type SplitSpec,
  type TransparentModel,
} from '../../engine';
import { scarceClassesText, scarceRowsText } from '../../autotrain';
import { StoredFrame, loadFrameSync, writeFrameFile } from '../datasetFiles/frameFile';
import { loadHealthSync } from '../datasetFiles/healthFile';
import { parseUploadedFile } from '../datasetFiles/uploadedFile';
import { generalisationWarnings } from './generalisation';
import { finiteJson } from '../base/json';
import { serializeModel, deserializeModel, type StoredFittedModel } from './modelJson';
import { multiclassBaselineOf, multiclassMetrics, multiclassOutcome } from './multiclass';
import type {
  CsvSource,
  FitOutcome,
  FitPreprocessorTask,
  StoreFrameTask,
  IngestOutcome,
  IngestTask,
  PartitionOutcome,
  PreviewEditsOutcome,
  PreviewEditsTask,
  RefitOutcome,
  RefitRows,
  RefitTask,
  TrainTask,
} from './tasks';
import { editFitted, previewParts } from './edits';

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

const OBJECTIVE_METRIC_KEYS = ['poisson_deviance', 'gamma_deviance', 'tweedie_deviance', 'pinball_loss', 'coverage'] as const;

/** Every feature of any partition, in training order. */
export function featureNames(model: TransparentModel | MulticlassModel): string[] {
  const first = model.modelType === 'multiclass' ? model.classModels[0] : model;
  return [...new Set([...first.partitions.values()].flatMap((p) => p.features.map((f) => f.name)))];
}

export function readFrame(source: CsvSource): DataFrame {
  return 'path' in source ? loadFrameSync(source.path) : new CsvFrameBuilder().push(source.text).finish();
}

export async function runIngest(task: IngestTask): Promise<IngestOutcome> {
  const { frame, header } = await parseUploadedFile(task.path);
  writeFrameFile(task.datasetPath ?? task.path, frame);
  return { rows: frame.nRows, columns: frame.names, header };
}

export function runStoreFrame(task: StoreFrameTask): IngestOutcome {
  const frame = new DataFrame(task.columns, task.rows);
  writeFrameFile(task.path, frame);
  return { rows: frame.nRows, columns: frame.names, header: frame.names };
}

export function applyPreprocessorIfAny(frame: DataFrame, fitted: unknown): DataFrame {
  return fitted ? applyPreprocessor(frame, fitted as FittedPreprocessor) : frame;
}

/** A model's metric set; a regressor's objective adds its own (its deviance, or the pinball loss and coverage). */
function summaryMetrics(model: Pick<TransparentModel, 'modelType'>, full: EvaluationMetrics): Metrics {
  const keys: readonly string[] = model.modelType === 'regressor' ? [...METRIC_KEYS.regressor, ...OBJECTIVE_METRIC_KEYS] : METRIC_KEYS[model.modelType];
  return Object.fromEntries(keys.filter((k) => k in full).map((k) => [k, (full as Record<string, unknown>)[k]])) as Metrics;
}

/** The constant and linear yardsticks of a model (or the model a fit will make) on the test rows. */
function baselineOf(model: BaselineSubject, train: DataFrame, test: DataFrame): Baseline | null {
  const yardsticks = test.nRows > 0 ? evaluateBaselines(model, train, test) : null;
  return yardsticks
    ? {
        constant: summaryMetrics(model, finiteJson(yardsticks.constant) as EvaluationMetrics),
        linear: yardsticks.linear ? summaryMetrics(model, finiteJson(yardsticks.linear) as EvaluationMetrics) : null,
      }
    : null;
}

/**
 * A model's train and test evaluation, its baselines on the test rows (`known` when already computed for these rows
 * and features) and the warnings they raise.
 */
function judged(model: TransparentModel, train: DataFrame, test: DataFrame, known?: Baseline | null): PartitionOutcome['evaluation'] {
  const trainEval = finiteJson(evaluateModel(model, train)) as EvaluationMetrics;
  const testEval = finiteJson(evaluateModel(model, test)) as EvaluationMetrics;
  const baseline = known === undefined ? baselineOf(fittedSubject(model), train, test) : known;
  const warnings = generalisationWarnings(summaryMetrics(model, trainEval), summaryMetrics(model, testEval), baseline);
  return { train: trainEval, test: testEval, baseline, warnings };
}

function partitionOutcomes(model: TransparentModel, train: DataFrame, test: DataFrame, known: Record<string, Baseline | null> | null): PartitionOutcome[] {
  const trainFrames = partitionFrames(model, train);
  const testFrames = partitionFrames(model, test);
  return [...model.partitions].map(([key, part]) => {
    const trainRows = trainFrames.get(key) as DataFrame;
    const testRows = testFrames.get(key) as DataFrame;
    return {
      key,
      nTrain: trainRows.nRows,
      nTest: testRows.nRows,
      baseValue: part.baseValue,
      evaluation: judged(singlePartitionModel(model, key), trainRows, testRows, known?.[key]),
    };
  });
}

/** The method and parameters a model was fitted with, as a version records them. */
function fittedParameters(model: TransparentModel): Record<string, unknown> {
  const whole = model.partitions.get(DATASET_PARTITION) ?? (model.partitions.values().next().value as PartitionModel);
  if (model.method === 'xplainable') return { method: model.method, ...whole.params };
  return { method: model.method, ...whole.boost?.params, ...whole.features[0]?.boost?.params, ...objectiveParameters(model) };
}

/**
 * A stored dataset's health scan, cached at upload (else scanned from `frame()`), when the task uses the dataset as
 * uploaded (no preprocessor).
 */
function cachedHealth(source: CsvSource, preprocessor: unknown, frame: () => DataFrame): ColumnHealth[] | null {
  return 'path' in source && !preprocessor ? loadHealthSync(source.path, frame) : null;
}

/** The features' health (the dataset's cached scan, else a scan of the training rows) with their importances. */
function featureInfo(model: TransparentModel, train: DataFrame, features: string[], cached: ColumnHealth[] | null): FeatureInfoEntry[] {
  const importance = new Map(featureImportances(model).map((f) => [f.feature, f.importance]));
  const byName = new Map((cached ?? []).map((h) => [h.feature, h]));
  const health = features.every((f) => byName.has(f)) ? features.map((f) => byName.get(f) as ColumnHealth) : scanHealth(train.select(features));
  return finiteJson(health.map((h) => ({ ...h, importance: importance.get(h.feature) ?? 0 }))) as FeatureInfoEntry[];
}

function checkColumns(frame: Pick<DataFrame, 'has' | 'names'>, names: string[], label: string): void {
  for (const name of names) {
    if (!frame.has(name)) {
      throw new InputError(`${label} has no column ${name}; its columns are: ${frame.names.join(', ')}`, name);
    }
  }
}

export function splitFrame(
  frame: DataFrame | StoredFrame,
  target: string,
  testSize: number,
  seed: number,
  by?: SplitSpec,
): { train: DataFrame; test: DataFrame; testFrom: number | string | null } {
  const split = splitRows(frame, testSize, seed, by, target);
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
  return { train, test, testFrom: split.testFrom };
}

function outcome(
  fitted: TransparentModel | MulticlassModel,
  train: DataFrame,
  test: DataFrame,
  health: ColumnHealth[] | null,
  knownBaselines: Record<string, Baseline | null> | null = null,
): FitOutcome {
  const features = featureNames(fitted);
  if (fitted.modelType === 'multiclass') {
    // Each class model has the same method and parameters; their features' information is the first model's scan.
    const first = fitted.classModels[0];
    return multiclassOutcome(
      fitted,
      train,
      test,
      {
        modelJson: serializeModel(fitted),
        features,
        featureInfo: featureInfo(first, train, features, health),
        parameters: { ...fittedParameters(first), classes: fitted.classes },
      },
      knownBaselines,
    );
  }
  const model = fitted;
  const partitions = partitionOutcomes(model, train, test, knownBaselines);
  // The whole-data partition routes no rows elsewhere when the model is not partitioned; otherwise the model as a
  // whole (each row scored by its partition) is judged on all rows.
  const whole = model.partitionOn === null ? partitions[0].evaluation : judged(model, train, test);
  return {
    modelJson: serializeModel(model),
    features,
    trainMetrics: summaryMetrics(model, whole.train),
    testMetrics: summaryMetrics(model, whole.test),
    featureImportances: finiteJson(featureImportances(model)),
    nTrain: partitions[0]?.nTrain ?? train.nRows,
    nTest: partitions[0]?.nTest ?? test.nRows,
    partitions,
    featureInfo: featureInfo(model, train, features, health),
    parameters: fittedParameters(model),
    baseline: whole.baseline,
    warnings: whole.warnings,
  };
}

interface TrainingRows {
  train: DataFrame;
  test: DataFrame;
  /** The source's cached health scan (see `cachedHealth`). */
  health: ColumnHealth[] | null;
  /** A classifier's target values. */
  classes: string[];
  /** The classes whose rows were left out, too rare among the training rows to train (`rare_classes: "drop"`). */
  dropped: DroppedClass[];
  testFrom: number | string | null;
}

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/**
 * The training and test rows without the classes of a multiclass target too rare among the training rows to fit,
 * when `choice` is "drop"; with "error", such classes are a 422 naming them and the way out.
 */
export function leaveOutRareClasses(
  rows: { train: DataFrame; test: DataFrame },
  target: string,
  choice: RareClasses,
): { train: DataFrame; test: DataFrame; dropped: DroppedClass[] } {
  const rare = rareClasses(rows.train, target, rows.test);
  // Over MAX_CLASSES classes the fit refuses the target for that, whatever their rows.
  if (rare.length === 0 || targetClassCounts(rows.train, target).length > MAX_CLASSES) return { ...rows, dropped: [] };
  if (choice === 'error') {
    throw new InputError(
      `${target} cannot be trained as a classifier as it is: its ${scarceClassesText(rare)}. Send rare_classes: "drop" to leave out ${scarceRowsText(rare)}, or choose another target_column.`,
      'target_column',
    );
  }
  const values = rare.map((c) => c.value);
  const train = withoutClasses(rows.train, target, values);
  const test = withoutClasses(rows.test, target, values);
  if (targetClassCounts(train, target).length < 2) {
    const why = scarceClassesText(rare);
    throw new InputError(`Leaving out ${scarceRowsText(rare)} leaves ${target} fewer than 2 classes to learn (its ${why}); choose another target_column.`, 'target_column');
  }
  return { train, test, dropped: rare.map((c) => ({ class: c.value, rows: c.rows })) };
}

/** The warning a train with left-out classes carries: which classes and how many rows. */
function droppedWarning(target: string, dropped: readonly DroppedClass[]): string {
  const total = dropped.reduce((n, c) => n + c.rows, 0);
  const classes = dropped.map((c) => `'${c.class}' (${plural(c.rows, 'row')})`).join(', ');
  return `Left out ${plural(total, 'row')} of ${target}'s class${dropped.length === 1 ? '' : 'es'} ${classes}: fewer than ${MIN_CLASS_ROWS} training rows each (rare_classes: "drop").`;
}

/**
 * A train task's training and test rows and what the whole source tells. A stored dataset split as uploaded is read
 * a column at a time, so its rows are held once (as training and test rows), not twice; otherwise the source frame
 * is not returned, so its memory is free again before the fit.
 */
function trainingRows(task: TrainTask): TrainingRows {
  const stored = 'path' in task.source && !task.preprocessor && !task.testSource ? StoredFrame.open(task.source.path) : null;
  const source = stored ?? applyPreprocessorIfAny(readFrame(task.source), task.preprocessor);
  if (source.nRows === 0) throw new InputError(`${task.source.label} has a header but no data rows to train on`, 'csv_content');
  const { target, partitionOn, dropColumns, modelType, seed } = task.fit;
  checkColumns(source, [target, ...(partitionOn ? [partitionOn] : []), ...dropColumns], task.source.label);
  // Only a source used as uploaded (no preprocessor) is scanned, so the scanned frame is the source itself.
  const health = cachedHealth(task.source, task.preprocessor, () => (source instanceof StoredFrame ? source.select(source.names) : source));
  const classes = modelType === 'classifier' ? targetClassCounts(source.select([target]), target).map((c) => c.value) : [];
  const split = task.testSource
    ? { train: source as DataFrame, test: applyPreprocessorIfAny(readFrame(task.testSource), task.preprocessor), testFrom: null }
    : splitFrame(source, target, task.testSize, seed, task.fit.split);
  if (modelType !== 'classifier') return { ...split, health, classes, dropped: [] };
  const { train, test, dropped } = leaveOutRareClasses(split, target, task.rareClasses);
  const left = new Set(dropped.map((c) => c.class));
  return { train, test, health, classes: classes.filter((c) => !left.has(c)), dropped, testFrom: split.testFrom };
}

export async function runTrain(task: TrainTask): Promise<FitOutcome> {
  const { train, test, health, classes, dropped, testFrom } = trainingRows(task);
  // Large fits spread their bags (or features, and every class model's) over threads of their own, within the
  // pool's budget; small ones stay here.
  const multiclass = classes.length >= 3;
  const parallel = { threads: task.threads };
  const fitting = multiclass ? fitMulticlassParallel(train, task.fit, classes, parallel) : fitModelParallel(train, task.fit, parallel);
  const early = task.fit.partitionOn ? null : baselineWhileFitting(train, test, task.fit, multiclass ? classes : null);
  const model = await fitting;
  if (task.testSource) {
    checkColumns(test, [model.target, ...featureNames(model)], task.testSource.label);
  }
  const known = early && early.features.join('\n') === featureNames(model).join('\n') ? { [DATASET_PARTITION]: early.baseline } : null;
  const fitted = { ...withLeftOutWarnings(outcome(model, train, test, health, known), train, task.fit), testFrom };
  return dropped.length ? { ...fitted, droppedClasses: dropped, warnings: [droppedWarning(task.fit.target, dropped), ...fitted.warnings] } : fitted;
}

/** The outcome with a warning for each column left out as an identifier, on the train and on its whole-data partition. */
function withLeftOutWarnings(fitted: FitOutcome, train: DataFrame, options: FitOptions): FitOutcome {
  const left = leftOutColumns(train, options).map(
    (l) => `Left out ${l.column}: it looks like an identifier, not a feature (${l.reason}). Name it in keep_columns to train on it.`,
  );
  if (!left.length) return fitted;
  const partitions = fitted.partitions.map((p, i) => (i === 0 ? { ...p, evaluation: { ...p.evaluation, warnings: [...left, ...p.evaluation.warnings] } } : p));
  return { ...fitted, partitions, warnings: [...left, ...fitted.warnings] };
}

/**
 * The yardsticks of an unpartitioned fit (multiclass when given its `classes`), scored on this thread while the fit's
 * threads work (they depend on the planned features, not on the fitted model). Null when the options are bad: the
 * fit rejects them with its own error.
 */
function baselineWhileFitting(
  train: DataFrame,
  test: DataFrame,
  options: FitOptions,
  classes: readonly string[] | null,
): { features: readonly string[]; baseline: Baseline | null } | null {
  try {
    if (classes) {
      const subject = plannedMulticlassSubject(train, options, classes);
      return { features: subject.features, baseline: multiclassBaselineOf(subject, train, test) };
    }
    const subject = plannedSubject(train, options);
    return { features: subject.features, baseline: baselineOf(subject, train, test) };
  } catch {
    return null;
  }
}

/**
 * The training and test rows of a refit or a preview of edits: the source split by the version's seed, or, for a
 * version trained with a test dataset, the whole source and that dataset's rows. `frame` is the whole source.
 */
export function refitRows(task: RefitRows): { frame: DataFrame; train: DataFrame; test: DataFrame; testFrom: number | string | null } {
  const frame = applyPreprocessorIfAny(readFrame(task.source), task.preprocessor);
  checkColumns(frame, [task.target], task.source.label);
  if (!task.testSource) return { frame, ...splitFrame(frame, task.target, task.testSize, task.seed, task.split) };
  const test = applyPreprocessorIfAny(readFrame(task.testSource), task.preprocessor);
  checkColumns(test, [task.target], task.testSource.label);
  return { frame, train: frame, test, testFrom: null };
}

export function runRefit(task: RefitTask): RefitOutcome {
  const current = deserializeModel(task.modelJson);
  const kept = new Set(task.dropColumns);
  const features = (task.features ?? featureNames(current)).filter((f) => !kept.has(f));
  const refitOptions = { features, params: task.params, featureParams: task.featureParams ?? undefined, removeFeatures: task.removeFeatures, removePairs: task.removePairs };
  const result = task.edits
    ? { model: editFitted(current, task.edits).model, parametersChanged: {} }
    : current.modelType === 'multiclass'
      ? refitMulticlass(current, refitOptions)
      : refit(current, refitOptions);
  const { frame, train, test, testFrom } = refitRows(task);
  const health = cachedHealth(task.source, task.preprocessor, () => frame);
  const known = featureLayout(result.model) === featureLayout(current) ? task.parentBaselines : null;
  return { ...outcome(result.model, train, test, health, known), testFrom, parametersChanged: result.parametersChanged as RefitOutcome['parametersChanged'] };
}

/** Every partition's features in order (of every class model), as one text: the same when none gained or lost one. */
function featureLayout(model: StoredFittedModel): string {
  const models = model.modelType === 'multiclass' ? model.classModels : [model];
  return models.flatMap((m) => [...m.partitions].map(([key, part]) => JSON.stringify([key, part.features.map((f) => f.name)]))).join('\n');
}

/** A model's train and test metrics, as a train or refit reports them for the whole model. */
function splitMetrics(model: StoredFittedModel, train: DataFrame, test: DataFrame): SplitMetrics {
  if (model.modelType === 'multiclass') return { train_metrics: multiclassMetrics(model, train), test_metrics: multiclassMetrics(model, test) };
  const metrics = (rows: DataFrame) => summaryMetrics(model, finiteJson(evaluateModel(model, rows)) as EvaluationMetrics);
  return { train_metrics: metrics(train), test_metrics: metrics(test) };
}

/** The edited steps and the metrics before and after, on the rows a refit with these edits would report. */
export function runPreviewEdits(task: PreviewEditsTask): PreviewEditsOutcome {
  const current = deserializeModel(task.modelJson);
  const { model, parts } = editFitted(current, task.edits);
  const { train, test } = refitRows(task);
  return { parts: previewParts(parts), before: splitMetrics(current, train, test), after: splitMetrics(model, train, test) };
}

export function runFitPreprocessor(task: FitPreprocessorTask): unknown {
  return fitPreprocessor(readFrame(task.source), task.steps);
}
