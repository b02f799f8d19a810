/**
 * Multiclass classification, one-vs-rest: a multiclass model is one binary classifier per class (that class against
 * every other), each fitted by the engine's normal binary fit on the same rows and features, so each class model is
 * partitioned, refit and serialised exactly like a binary model. A row's class probabilities are the class models'
 * probabilities of their own class, normalised to sum to 1 (uniform when all of them are 0).
 */
import { EngineError } from '../base/errors';
import { binOnce, type Binner } from '../boost/fitBoosted';
import { fitPlan } from '../fit/fit';
import { checkFit, planFit, type FitPlan } from '../plan/plan';
import { groupRows, numberColumn, textCounts, textValue, type DataFrame } from '../data/frame';
import { evaluateClassifier } from '../evaluate/metrics';
import { fitLinearBaseline } from '../evaluate/linearBaseline';
import { compareText, type MulticlassModel } from './model';
import { singlePartitionModel } from '../model/partitions';
import { fitPlansParallel, type ParallelOptions } from '../fit/parallel';
import { modelFeatures, predict } from '../model/predict';
import { featureImportances, partitionProfile } from '../model/profile';
import { refit } from '../fit/refit';
import { MAX_CLASSES, MIN_CLASS_ROWS } from '../model/limits';
import type { FeatureImportance, FitOptions, ParamChange, ParamName, ProfilePartition, RefitOptions, TransparentModel } from '../model/types';

const LOG_CLIP = 1e-15;


export interface ClassCount {
  value: string;
  count: number;
}

/** The target's distinct non-missing values (as text) with their row counts, most frequent first. */
export function targetClassCounts(frame: DataFrame, target: string): ClassCount[] {
  return [...textCounts(frame.column(target), frame.nRows)].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || compareText(a.value, b.value));
}

/** Whether a classifier on this target is multiclass (3 or more distinct values). */
export function isMulticlassTarget(frame: DataFrame, target: string): boolean {
  return targetClassCounts(frame, target).length >= 3;
}

/**
 * Checks the contract's limits: at most 50 classes, each with at least 2 training rows. `known` are classes seen in
 * all the data (training and test rows), so a class left out of the training rows is named too.
 */
function checkedClasses(frame: DataFrame, target: string, known: readonly string[] = []): string[] {
  const counts = targetClassCounts(frame, target);
  for (const value of known) if (!counts.some((c) => c.value === value)) counts.push({ value, count: 0 });
  if (counts.length > MAX_CLASSES) {
    const top = counts.slice(0, 5).map((c) => `${c.value} (${c.count})`).join(', ');
    throw new EngineError(
      `A classifier takes at most ${MAX_CLASSES} classes; column ${target} has ${counts.length} distinct values (most frequent: ${top}, …)`,
      target,
    );
  }
  const rare = counts.filter((c) => c.count < MIN_CLASS_ROWS);
  if (rare.length) {
    throw new EngineError(
      `Every class needs at least ${MIN_CLASS_ROWS} training rows; in column ${target} ${rare.map((c) => `${c.value} has ${c.count}`).join(', ')}`,
      target,
    );
  }
  return counts.map((c) => c.value).sort(compareText);
}

/** The target as 1 (this class), 0 (another class) or missing, under the same column name. */
function oneVsRest(frame: DataFrame, target: string, cls: string): DataFrame {
  const col = frame.column(target);
  const y = new Float64Array(frame.nRows);
  for (let r = 0; r < y.length; r++) {
    const v = textValue(col, r);
    y[r] = v === null ? NaN : v === cls ? 1 : 0;
  }
  return frame.withColumns([numberColumn(target, y)]);
}

/**
 * Every class's fit plan: the first class's, and for the others that plan with their own target. The target is
 * missing on the same rows for every class, so the plans' rows and partitions agree, and the rows are taken from the
 * frame (and split into partitions) once rather than once per class; a fit reads only the features of a plan's rows.
 */
function classPlans(frame: DataFrame, options: FitOptions, classes: readonly string[]): FitPlan[] {
  const first: FitPlan = {
    ...planFit(oneVsRest(frame, options.target, classes[0]), { ...options, modelType: 'classifier' }),
    adaptivePatience: options.boost?.early_stopping_rounds === undefined,
  };
  const col = frame.column(options.target);
  const labelled: number[] = [];
  for (let r = 0; r < frame.nRows; r++) if (textValue(col, r) !== null) labelled.push(r);
  const data = first.parts[0].frame;
  const partRows = first.partitionOn === null ? [] : [...groupRows(data.column(first.partitionOn), data.nRows).values()];
  return classes.map((cls, k) => {
    if (k === 0) return first;
    const y = Float64Array.from(labelled, (r) => (textValue(col, r) === cls ? 1 : 0));
    return { ...first, parts: first.parts.map((part, i) => ({ ...part, y: i === 0 ? y : Float64Array.from(partRows[i - 1], (r) => y[r]) })) };
  });
}

/**
 * The class models' fit plans (the same rows, each with its class as the positive label), the bins they share when
 * boosted, and the multiclass model made of the fitted class models (in plan order). Only running the plans differs
 * between fitMulticlass and fitMulticlassParallel.
 */
function planMulticlass(
  frame: DataFrame,
  options: FitOptions,
  knownClasses: readonly string[],
): { plans: FitPlan[]; bin: Binner; model: (classModels: TransparentModel[]) => MulticlassModel } {
  const classes = checkedClasses(frame, options.target, knownClasses);
  const plans = classPlans(frame, options, classes);
  // The plans share their rows and partitions, so their bins agree.
  const bin = binOnce();
  const partitionOn = options.partitionOn ?? null;
  return { plans, bin, model: (classModels) => ({ modelType: 'multiclass', target: options.target, partitionOn, classes, classModels }) };
}

/**
 * Fits one binary classifier per class of the target with the given options (whatever fit method they choose).
 * `knownClasses`: the target's values in all the data, when `frame` holds only the training rows.
 */
export function fitMulticlass(frame: DataFrame, options: FitOptions, knownClasses: readonly string[] = []): MulticlassModel {
  const { plans, bin, model } = planMulticlass(frame, options, knownClasses);
  return model(plans.map((plan) => fitPlan(plan, bin)));
}

/**
 * `fitMulticlass` with every class model's work spread over one set of worker threads (`fitPlansParallel`); the
 * model is identical to `fitMulticlass`'s.
 */
export async function fitMulticlassParallel(
  frame: DataFrame,
  options: FitOptions,
  knownClasses: readonly string[] = [],
  parallel: ParallelOptions = {},
): Promise<MulticlassModel> {
  const { plans, bin, model } = planMulticlass(frame, options, knownClasses);
  return model(await fitPlansParallel(plans, parallel, bin));
}

/** The model restricted to one partition's class models (as the `__dataset__` model), to judge that partition. */
export function singlePartitionMulticlass(model: MulticlassModel, key: string): MulticlassModel {
  return { ...model, partitionOn: null, classModels: model.classModels.map((m) => singlePartitionModel(m, key)) };
}

export interface MulticlassPrediction {
  n: number;
  classes: string[];
  /** The most probable class of every row (the first in `classes` order on a tie). */
  predictions: string[];
  /** Per class, each row's probability; every row sums to 1. */
  classProbabilities: Record<string, Float64Array>;
  /** Per class, each row's base value (the base of the class model's partition that scored it). */
  classBaseValues: Record<string, Float64Array>;
  /** Only with `explain`: per class, per feature, one contribution per row (the class model's contributions). */
  classContributions: Record<string, Record<string, Float64Array>> | null;
  /** Only with `explain` and pair terms: per class, per pair (pairName), one contribution per row. */
  classPairContributions: Record<string, Record<string, Float64Array>> | null;
  warnings: string[];
}

export function predictMulticlass(model: MulticlassModel, frame: DataFrame, options: { explain?: boolean } = {}): MulticlassPrediction {
  const results = model.classModels.map((m) => predict(m, frame, { explain: options.explain }));
  const n = frame.nRows;
  const probs = results.map((r) => r.probabilities as Float64Array);
  const normalised = probs.map(() => new Float64Array(n));
  const predictions: string[] = new Array(n);
  for (let r = 0; r < n; r++) {
    let sum = 0;
    for (const p of probs) sum += p[r];
    let best = 0;
    for (let k = 0; k < probs.length; k++) {
      normalised[k][r] = sum > 0 ? probs[k][r] / sum : 1 / probs.length;
      if (normalised[k][r] > normalised[best][r]) best = k;
    }
    predictions[r] = model.classes[best];
  }
  const byClass = <T>(f: (k: number) => T): Record<string, T> => Object.fromEntries(model.classes.map((c, k) => [c, f(k)]));
  return {
    n,
    classes: model.classes,
    predictions,
    classProbabilities: byClass((k) => normalised[k]),
    classBaseValues: byClass((k) => results[k].baseValues),
    classContributions: options.explain ? byClass((k) => results[k].contributions as Record<string, Float64Array>) : null,
    classPairContributions: results.some((r) => r.pairContributions) ? byClass((k) => results[k].pairContributions ?? {}) : null,
    warnings: results[0]?.warnings ?? [],
  };
}

/** Refit without data: the same refit applied to every class model; changes are merged over classes. */
export function refitMulticlass(
  model: MulticlassModel,
  options: RefitOptions = {},
): { model: MulticlassModel; parametersChanged: Record<string, Partial<Record<ParamName, ParamChange>>> } {
  const parametersChanged: Record<string, Partial<Record<ParamName, ParamChange>>> = {};
  const classModels = model.classModels.map((m) => {
    const result = refit(m, options);
    for (const [f, changes] of Object.entries(result.parametersChanged)) parametersChanged[f] = { ...parametersChanged[f], ...changes };
    return result.model;
  });
  return { model: { ...model, classModels }, parametersChanged };
}

export interface ClassProfile extends Omit<ProfilePartition, 'partition'> {
  class: string;
}
export interface MulticlassProfilePartition {
  partition: string;
  classes: string[];
  per_class: ClassProfile[];
  /** Mean over classes of each feature's importance in the class models. */
  feature_importances: FeatureImportance[];
}
export interface MulticlassProfile {
  model_type: 'multiclass_classification';
  target_name: string;
  classes: string[];
  partitions: MulticlassProfilePartition[];
}

export function multiclassProfile(model: MulticlassModel): MulticlassProfile {
  const keys = [...model.classModels[0].partitions.keys()];
  return {
    model_type: 'multiclass_classification',
    target_name: model.target,
    classes: model.classes,
    partitions: keys.map((key) => {
      const parts = model.classModels.map((m) => m.partitions.get(key)).filter((p) => p !== undefined);
      const per_class = parts.map((p, k) => {
        const { partition: _partition, ...rest } = partitionProfile(p);
        return { class: model.classes[k], ...rest };
      });
      return { partition: key, classes: model.classes, per_class, feature_importances: meanImportances(parts.map((p) => featureImportances(p))) };
    }),
  };
}

/** Overall importances of a multiclass model's `__dataset__` partition (mean over classes). */
export function multiclassImportances(model: MulticlassModel): FeatureImportance[] {
  return meanImportances(model.classModels.map((m) => featureImportances(m)));
}

function meanImportances(perClass: FeatureImportance[][]): FeatureImportance[] {
  const sums = new Map<string, number>();
  for (const list of perClass) for (const { feature, importance } of list) sums.set(feature, (sums.get(feature) ?? 0) + importance);
  return [...sums].map(([feature, s]) => ({ feature, importance: s / perClass.length })).sort((a, b) => b.importance - a.importance);
}

export interface MulticlassClassMetrics {
  class: string;
  support: number;
  precision: number;
  recall: number;
  f1: number;
  roc_auc: number | null;
  roc: { fpr: number[]; tpr: number[] };
}
export interface MulticlassMetrics {
  accuracy: number;
  roc_auc: number | null;
  roc_auc_weighted: number | null;
  log_loss: number | null;
  f1: number;
  precision: number;
  recall: number;
  mcc: number | null;
  confusion_matrix: { labels: string[]; matrix: number[][] };
}
export interface MulticlassEvaluation extends MulticlassMetrics {
  /** One-vs-rest metrics and ROC curve of every class. */
  per_class: MulticlassClassMetrics[];
}

/**
 * Multiclass metrics of actual classes against per-class probabilities: the predicted class is the most probable;
 * AUC is one-vs-rest per class, averaged (macro) and weighted by class support; MCC is the K-class generalisation.
 */
export function evaluateMulticlass(
  actual: readonly string[],
  classProbabilities: Record<string, ArrayLike<number>>,
  classes: readonly string[],
): MulticlassEvaluation {
  const n = actual.length;
  const K = classes.length;
  const index = new Map(classes.map((c, k) => [c, k]));
  const probs = classes.map((c) => classProbabilities[c]);
  const matrix = classes.map(() => new Array<number>(K).fill(0));
  let logLoss = 0;
  for (let r = 0; r < n; r++) {
    const a = index.get(actual[r]);
    if (a === undefined) throw new EngineError(`Actual class ${actual[r]} is not one of the model's classes (${classes.join(', ')})`, 'actual');
    let best = 0;
    for (let k = 1; k < K; k++) if (probs[k][r] > probs[best][r]) best = k;
    matrix[a][best]++;
    logLoss -= Math.log(Math.min(1 - LOG_CLIP, Math.max(LOG_CLIP, probs[a][r])));
  }
  const binaries = classes.map((cls, k) =>
    evaluateClassifier(
      actual.map((a) => (a === cls ? 1 : 0)),
      probs[k],
    ),
  );
  const counted = multiclassMetricsOfCounts(classes, matrix, logLoss, binaries.map((b) => b.roc_auc));
  return { ...counted, per_class: counted.per_class.map((c, k) => ({ ...c, roc: binaries[k].roc })) };
}

/**
 * The multiclass metrics of counts: the confusion matrix (rows actual, columns the most probable class, both in
 * `classes` order), the log loss summed over its rows (probabilities clipped to [1e-15, 1 − 1e-15]) and each
 * class's one-vs-rest rank AUC (null when the rows hold that class only or not at all). Whether the counts were
 * made in memory or in a database, the metrics are derived from them alike.
 */
export function multiclassMetricsOfCounts(
  classes: readonly string[],
  matrix: number[][],
  logLossSum: number,
  classAucs: readonly (number | null)[],
): MulticlassMetrics & { per_class: Omit<MulticlassClassMetrics, 'roc'>[] } {
  const K = classes.length;
  const per_class = classes.map((cls, k): Omit<MulticlassClassMetrics, 'roc'> => {
    const tp = matrix[k][k];
    const support = matrix[k].reduce((s, v) => s + v, 0);
    const predicted = matrix.reduce((s, row) => s + row[k], 0);
    const precision = predicted > 0 ? tp / predicted : 0;
    const recall = support > 0 ? tp / support : 0;
    return { class: cls, support, precision, recall, f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0, roc_auc: classAucs[k] };
  });
  const n = per_class.reduce((s, c) => s + c.support, 0);
  const macro = (key: 'precision' | 'recall' | 'f1'): number => per_class.reduce((s, c) => s + c[key], 0) / K;
  const scored = per_class.filter((c) => c.roc_auc !== null);
  const supportScored = scored.reduce((s, c) => s + c.support, 0);
  const correct = classes.reduce((s, _, k) => s + matrix[k][k], 0);
  return {
    accuracy: n > 0 ? correct / n : 0,
    roc_auc: scored.length ? scored.reduce((s, c) => s + (c.roc_auc as number), 0) / scored.length : null,
    roc_auc_weighted: supportScored > 0 ? scored.reduce((s, c) => s + (c.roc_auc as number) * c.support, 0) / supportScored : null,
    log_loss: n > 0 ? logLossSum / n : null,
    f1: macro('f1'),
    precision: macro('precision'),
    recall: macro('recall'),
    mcc: multiclassMcc(matrix, correct, n),
    confusion_matrix: { labels: [...classes], matrix },
    per_class,
  };
}

/** The rows whose target is one of the model's classes, and that class per row. */
function labelledRows(model: { target: string; classes: readonly string[] }, frame: DataFrame): { rows: Int32Array; actual: string[] } {
  if (!frame.has(model.target)) return { rows: new Int32Array(0), actual: [] };
  const col = frame.column(model.target);
  const known = new Set(model.classes);
  const rows: number[] = [];
  const actual: string[] = [];
  for (let r = 0; r < frame.nRows; r++) {
    const v = textValue(col, r);
    if (v === null || !known.has(v)) continue;
    rows.push(r);
    actual.push(v);
  }
  return { rows: Int32Array.from(rows), actual };
}

/** The model's metrics on the rows of a frame whose target is one of its classes. */
export function evaluateMulticlassModel(model: MulticlassModel, frame: DataFrame): MulticlassEvaluation {
  const { rows, actual } = labelledRows(model, frame);
  return evaluateMulticlass(actual, predictMulticlass(model, frame.take(rows)).classProbabilities, model.classes);
}

/** What the yardsticks of a multiclass model depend on: its target, classes and features. */
export interface MulticlassBaselineSubject {
  target: string;
  classes: readonly string[];
  features: readonly string[];
}

export function fittedMulticlassSubject(model: MulticlassModel): MulticlassBaselineSubject {
  return { target: model.target, classes: model.classes, features: modelFeatures(model.classModels[0]) };
}

/**
 * The subject a multiclass fit of `frame` with `options` will have, known before fitting: a caller waiting for fit
 * threads can score the yardsticks meanwhile. Throws what the fit would throw for bad options.
 */
export function plannedMulticlassSubject(frame: DataFrame, options: FitOptions, knownClasses: readonly string[] = []): MulticlassBaselineSubject {
  const classes = checkedClasses(frame, options.target, knownClasses);
  const { features } = checkFit(oneVsRest(frame, options.target, classes[0]), { ...options, modelType: 'classifier' });
  return { target: options.target, classes, features };
}

/**
 * The yardsticks on the test rows: always predicting the training class shares (`constant`), and one L2 logistic
 * regression per class, one-vs-rest, normalised like the model (`linear`; null without usable features).
 */
export function evaluateMulticlassBaselines(
  subject: MulticlassBaselineSubject,
  train: DataFrame,
  test: DataFrame,
): { constant: MulticlassEvaluation; linear: MulticlassEvaluation | null } | null {
  const fitted = labelledRows(subject, train);
  const held = labelledRows(subject, test);
  if (fitted.rows.length === 0 || held.rows.length === 0) return null;
  const trainRows = train.take(fitted.rows);
  const testRows = test.take(held.rows);
  const m = held.rows.length;
  const constant = Object.fromEntries(
    subject.classes.map((c) => [c, new Float64Array(m).fill(fitted.actual.filter((a) => a === c).length / fitted.actual.length)]),
  );
  const features = subject.features.filter((f) => trainRows.has(f));
  let linear: MulticlassEvaluation | null = null;
  if (features.length > 0) {
    const raw = subject.classes.map((c) =>
      fitLinearBaseline(trainRows, features, Float64Array.from(fitted.actual, (a) => (a === c ? 1 : 0)), 'classifier').predict(testRows),
    );
    if (raw.every((p) => p.every(Number.isFinite))) {
      const sums = Array.from({ length: m }, (_, r) => raw.reduce((s, p) => s + p[r], 0));
      const probs = Object.fromEntries(subject.classes.map((c, k) => [c, Float64Array.from(raw[k], (v, r) => (sums[r] > 0 ? v / sums[r] : 1 / raw.length))]));
      linear = evaluateMulticlass(held.actual, probs, subject.classes);
    }
  }
  return { constant: evaluateMulticlass(held.actual, constant, subject.classes), linear };
}

/** Gorodkin's K-class MCC from the confusion matrix (rows actual); null when undefined (one class only). */
function multiclassMcc(matrix: number[][], correct: number, n: number): number | null {
  const K = matrix.length;
  let pt = 0;
  let pp = 0;
  let tt = 0;
  for (let k = 0; k < K; k++) {
    const t = matrix[k].reduce((s, v) => s + v, 0);
    const p = matrix.reduce((s, row) => s + row[k], 0);
    pt += p * t;
    pp += p * p;
    tt += t * t;
  }
  const den = Math.sqrt((n * n - pp) * (n * n - tt));
  return den > 0 ? (correct * n - pt) / den : null;
}
