import { assembleBoosted, binParts, planBoosted, runBag, type Binner } from '../boost/fitBoosted';
import {
  validateBoostFeatureParams,
  checkedBoostParams,
  validateFitMethod,
  type BoostFeatureParams,
  type BoostParams,
  type FitMethod,
} from '../params/boosted';
import { buildCalibration } from '../model/calibration';
import { fitCategoricalFeature, fitNumericFeature, type FeatureInput } from '../xplainable/construct';
import { EngineError } from '../errors';
import { textValue, type Column, type DataFrame } from '../data/frame';
import { leafIndices } from '../model/lookup';
import { normaliseClassifier } from '../xplainable/normalise';
import { DEFAULT_PARAMS, validateAlpha, validateParams } from '../params/xplainable';
import { fitRidge } from '../xplainable/ridge';
import type { FeatureModel, FitOptions, Label, ModelParams, ModelType, PartitionModel, TransparentModel } from '../model/types';

/** Key of the model fitted on all rows; every model has it and unknown partition values fall back to it. */
export const DATASET_PARTITION = '__dataset__';
const DEFAULT_ALPHA = 0.1;
const DEFAULT_SEED = 42;

/** Everything a fit needs once the options are checked: the rows of each partition and the shared settings. */
export interface FitPlan {
  modelType: ModelType;
  target: string;
  partitionOn: string | null;
  labels: [Label, Label] | null;
  features: string[];
  idColumns: string[];
  params: ModelParams;
  alpha: number;
  mapCalibration: boolean;
  method: FitMethod;
  /** The given `boosted` parameters, checked; each partition resolves the defaults for its size. */
  boost: Partial<BoostParams>;
  boostFeature: BoostFeatureParams;
  seed: number;
  /** `__dataset__` first, then one entry per partition value. */
  parts: { key: string; frame: DataFrame; y: Float64Array }[];
}

/** Checks the options and splits the rows into partitions; rows whose target is missing are left out. */
export function planFit(frame: DataFrame, options: FitOptions): FitPlan {
  const { keep, y, ...settings } = checkFit(frame, options);
  const data = keep.length === frame.nRows ? frame : frame.take(keep);
  const parts = [{ key: DATASET_PARTITION, frame: data, y }];
  if (settings.partitionOn !== null) {
    for (const [key, rows] of groupRows(data.column(settings.partitionOn), data.nRows)) {
      parts.push({ key, frame: data.take(rows), y: Float64Array.from(rows, (r) => y[r]) });
    }
  }
  return { ...settings, parts };
}

/**
 * The checks and settings of `planFit`, with the rows whose target is present (`keep`) and the target on them, but
 * without taking those rows from the frame: what a fit will make is known from this alone.
 */
export function checkFit(frame: DataFrame, options: FitOptions): Omit<FitPlan, 'parts'> & { keep: Int32Array; y: Float64Array } {
  const { target, modelType } = options;
  if (modelType !== 'classifier' && modelType !== 'regressor') {
    throw new EngineError(`modelType must be "classifier" or "regressor" (got ${String(modelType)})`, 'modelType');
  }
  const targetCol = frame.column(target);
  const params = validateParams(options.params ?? {}, DEFAULT_PARAMS);
  const alpha = validateAlpha(options.alpha ?? DEFAULT_ALPHA);
  const partitionOn = options.partitionOn ?? null;
  if (partitionOn !== null) {
    frame.column(partitionOn);
    if (partitionOn === target) throw new EngineError(`partition_on cannot be the target column ${target}`, 'partition_on');
  }
  const { features, idColumns } = resolveFeatures(frame, options, partitionOn);
  const { y, keep, labels } = encodeTarget(targetCol, modelType);
  if (y.length === 0) throw new EngineError(`The target column ${target} has no values`, target);
  if (modelType === 'regressor' && y.every((v) => v === y[0])) {
    throw new EngineError(`The target column ${target} has a single value (${y[0]}) in every row; a model needs a target that varies`, target);
  }
  return {
    modelType,
    target,
    partitionOn,
    labels,
    features,
    idColumns,
    params,
    alpha,
    mapCalibration: options.mapCalibration ?? true,
    method: validateFitMethod(options.method),
    boost: checkedBoostParams(options.boost ?? {}),
    boostFeature: validateBoostFeatureParams(options.boostFeature ?? {}),
    seed: options.seed ?? DEFAULT_SEED,
    keep,
    y,
  };
}

/** One feature's training data and settings, as plain cloneable data (also what a fit worker receives). */
export interface FeatureTask {
  input: FeatureInput;
  alpha: number;
  y: Float64Array;
  column: { storage: 'number'; values: Float64Array } | { storage: 'category'; codes: Int32Array; levels: readonly string[] };
}

export function fitFeatureTask(t: FeatureTask): FeatureModel {
  return t.column.storage === 'number'
    ? fitNumericFeature(t.input, t.column.values, t.y, t.alpha)
    : fitCategoricalFeature(t.input, t.column.codes, t.column.levels, t.y);
}

/** The per-feature tasks of every partition, in plan order (partition by partition, features in order). */
export function featureTasks(plan: FitPlan): FeatureTask[] {
  const regressor = plan.modelType === 'regressor';
  return plan.parts.flatMap(({ frame, y }) => {
    const base = mean(y);
    return plan.features.map((name): FeatureTask => {
      const col = frame.column(name);
      return {
        input: { name, params: plan.params, base, regressor },
        alpha: plan.alpha,
        y,
        column: col.storage === 'number' ? { storage: 'number', values: col.values } : { storage: 'category', codes: col.codes, levels: col.levels },
      };
    });
  });
}

/** Builds the model from fitted features (`fitted` in `featureTasks` order): normalisation or Ridge, calibration. */
export function assembleModel(plan: FitPlan, fitted: FeatureModel[]): TransparentModel {
  const k = plan.features.length;
  const partitions = new Map(
    plan.parts.map((part, i) => [part.key, finishPartition(plan, part, fitted.slice(i * k, (i + 1) * k))] as const),
  );
  return { modelType: plan.modelType, method: 'xplainable', target: plan.target, partitionOn: plan.partitionOn, targetLabels: plan.labels, partitions };
}

/**
 * Fits a transparent model: one additive per-feature model on all rows (`__dataset__`) and, with `partitionOn`,
 * one more per distinct value of that column. Rows whose target is missing are left out. Single-threaded; see
 * `fitModelParallel` for large data.
 */
export function fitModel(frame: DataFrame, options: FitOptions): TransparentModel {
  return fitPlan(planFit(frame, options));
}

/** Fits a planned model on this thread; `bin` bins its columns when boosted (see binOnce to share bins). */
export function fitPlan(plan: FitPlan, bin: Binner = binParts): TransparentModel {
  if (plan.method === 'boosted') {
    const boosted = planBoosted(plan, bin);
    return assembleBoosted(boosted, boosted.tasks.map(runBag));
  }
  return assembleModel(plan, featureTasks(plan).map(fitFeatureTask));
}

function mean(y: Float64Array): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += y[i];
  return s / y.length;
}

function resolveFeatures(
  frame: DataFrame,
  options: FitOptions,
  partitionOn: string | null,
): { features: string[]; idColumns: string[] } {
  const dropped = new Set(options.dropColumns ?? []);
  for (const d of dropped) frame.column(d);
  if (options.features) {
    for (const f of options.features) {
      frame.column(f);
      if (f === options.target) throw new EngineError(`The target column ${f} cannot also be a feature`, f);
    }
    return { features: options.features.filter((f) => !dropped.has(f)), idColumns: [] };
  }
  const idColumns = frame.columns.filter((c) => c.type === 'id').map((c) => c.name);
  const features = frame.names.filter(
    (n) => n !== options.target && n !== partitionOn && !dropped.has(n) && !idColumns.includes(n),
  );
  if (features.length === 0) throw new EngineError('No feature columns are left to train on', 'features');
  return { features, idColumns };
}

/** Classifier: the two labels sorted (numbers numerically), the second is the positive class. */
function encodeTarget(col: Column, modelType: ModelType): { y: Float64Array; keep: Int32Array; labels: [Label, Label] | null } {
  const n = col.storage === 'number' ? col.values.length : col.codes.length;
  if (modelType === 'regressor' && (col.storage !== 'number' || col.type !== 'numeric')) {
    throw new EngineError(`A regressor needs a numeric target; column ${col.name} is ${col.type}`, col.name);
  }
  // Per row: the target as a number (regressor) or its label's index in `found` (classifier); NaN when missing.
  const found: Label[] = [];
  const values = new Float64Array(n);
  let kept = 0;
  for (let i = 0; i < n; i++) {
    let v: number;
    if (col.storage === 'number') {
      v = col.values[i];
      if (modelType === 'classifier' && v === v) v = labelIndex(found, v);
    } else v = col.codes[i] < 0 ? NaN : labelIndex(found, col.levels[col.codes[i]]);
    values[i] = v;
    if (v === v) kept++;
  }
  const keep = new Int32Array(kept);
  const y = new Float64Array(kept);
  for (let i = 0, k = 0; i < n; i++) {
    if (values[i] !== values[i]) continue;
    keep[k] = i;
    y[k++] = values[i];
  }
  if (modelType === 'regressor') return { y, keep, labels: null };
  const sorted = [...found].sort((a, b) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0,
  );
  if (sorted.length !== 2) {
    const many = sorted.length > 5;
    const shown = sorted.slice(0, 5).map(String).join(', ');
    throw new EngineError(
      `A classifier needs a target with exactly two values; column ${col.name} has ${many ? 'at least 6' : sorted.length} (${shown}${many ? ', …' : ''})`,
      col.name,
    );
  }
  const positive = found.indexOf(sorted[1]);
  for (let k = 0; k < y.length; k++) y[k] = y[k] === positive ? 1 : 0;
  return { y, keep, labels: [sorted[0], sorted[1]] };
}

/** Index of a label among those seen so far (added when new); stops growing past 6 so bad targets stay cheap. */
function labelIndex(found: Label[], label: Label): number {
  const i = found.indexOf(label);
  if (i >= 0) return i;
  if (found.length < 6) found.push(label);
  return found.length - 1;
}

/** Row indices per partition value (its text), in order of the values' first appearance. */
export function groupRows(col: Column, n: number): Map<string, Int32Array> {
  const groups = new Map<string, number[]>();
  for (let r = 0; r < n; r++) {
    const key = textValue(col, r);
    if (key === null) continue;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(r);
  }
  return new Map([...groups].map(([k, rows]) => [k, Int32Array.from(rows)]));
}

function finishPartition(plan: FitPlan, part: FitPlan['parts'][number], features: FeatureModel[]): PartitionModel {
  const n = part.y.length;
  const base = mean(part.y);
  const model: PartitionModel = {
    key: part.key,
    nTrain: n,
    baseValue: base,
    params: { ...plan.params },
    alpha: plan.alpha,
    features,
    idColumns: plan.idColumns,
    calibration: null,
    support: null,
    predictionRange: [-Infinity, Infinity],
  };
  if (plan.modelType === 'regressor') {
    const leafIdx = features.map((f) => leafIndices(f, part.frame.column(f.name), n));
    const ridge = fitRidge(features, leafIdx, part.y);
    features.forEach((f, i) => applyCoefficients(f, ridge.coef[i]));
    model.baseValue = ridge.intercept;
  } else {
    normaliseClassifier(features, base);
    if (plan.mapCalibration) Object.assign(model, buildCalibration(trainingScores(model, part.frame), part.y));
  }
  return model;
}

/** Regressor leaf scores: raw × Ridge coefficient (−0 stored as 0, which JSON can carry). */
export function applyCoefficients(f: FeatureModel, coef: Float64Array): void {
  f.coef = coef;
  for (let i = 0; i < coef.length; i++) f.leaves.score[i] = f.leaves.raw[i] * coef[i] + 0;
}

/** Additive scores of a partition model on the rows of a frame. */
function trainingScores(model: PartitionModel, frame: DataFrame): Float64Array {
  const scores = new Float64Array(frame.nRows).fill(model.baseValue);
  for (const f of model.features) {
    const idx = leafIndices(f, frame.has(f.name) ? frame.column(f.name) : undefined, frame.nRows);
    const s = f.leaves.score;
    for (let r = 0; r < scores.length; r++) scores[r] += s[idx[r]];
  }
  return scores;
}
