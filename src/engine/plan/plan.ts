import {
  validateBoostFeatureParams,
  checkedBoostParams,
  validateFitMethod,
  type BoostFeatureParams,
  type BoostParams,
} from '../params/boosted';
import { resolveBoostParams } from './sizeDefaults';
import type { FitMethod } from '../params/table';
import { EngineError } from '../errors';
import { groupRows, type Column, type DataFrame } from '../data/frame';
import { DATASET_PARTITION } from '../model/partitions';
import { DEFAULT_SPLIT, type SplitSpec } from '../params/split';
import { checkedSplitColumn } from './splitColumn';
import { DEFAULT_PARAMS, validateAlpha, validateParams } from '../params/xplainable';
import type { FitOptions, Label, ModelParams, ModelType } from '../model/types';

const DEFAULT_ALPHA = 0.1;
const DEFAULT_SEED = 42;

/** A partition's rows, target and parameters. */
export interface PlannedPart {
  key: string;
  frame: DataFrame;
  y: Float64Array;
  /** The `boosted` parameters for this partition: the given ones, else the defaults for its size (resolved here once). */
  boost: BoostParams;
}

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
  boostFeature: BoostFeatureParams;
  seed: number;
  split: SplitSpec;
  /** `boosted` only: bags stop early as BestRound's `adaptive` does (set for the class models of a multiclass fit). */
  adaptivePatience?: boolean;
  /** `__dataset__` first, then one entry per partition value. */
  parts: PlannedPart[];
}

/** Checks the options and splits the rows into partitions; rows whose target is missing are left out. */
export function planFit(frame: DataFrame, options: FitOptions): FitPlan {
  const { keep, y, boost, ...settings } = checkFit(frame, options);
  const data = keep.length === frame.nRows ? frame : frame.take(keep);
  const part = (key: string, rows: DataFrame, target: Float64Array): PlannedPart => ({ key, frame: rows, y: target, boost: resolveBoostParams(boost, target.length) });
  const parts = [part(DATASET_PARTITION, data, y)];
  if (settings.partitionOn !== null) {
    for (const [key, rows] of groupRows(data.column(settings.partitionOn), data.nRows)) {
      parts.push(part(key, data.take(rows), Float64Array.from(rows, (r) => y[r])));
    }
  }
  return { ...settings, parts };
}

/**
 * The checks and settings of `planFit`, with the rows whose target is present (`keep`) and the target on them, but
 * without taking those rows from the frame: what a fit will make is known from this alone.
 */
export function checkFit(
  frame: DataFrame,
  options: FitOptions,
): Omit<FitPlan, 'parts'> & { keep: Int32Array; y: Float64Array; boost: Partial<BoostParams> } {
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
  const splitBy = checkedSplitColumn(frame, options.split, target);
  const { features, idColumns } = resolveFeatures(frame, options, partitionOn, splitBy);
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
    // The one check of the boosted parameters in the engine: each partition resolves its defaults from these.
    boost: checkedBoostParams(options.boost ?? {}),
    boostFeature: validateBoostFeatureParams(options.boostFeature ?? {}),
    seed: options.seed ?? DEFAULT_SEED,
    split: options.split ?? DEFAULT_SPLIT,
    keep,
    y,
  };
}

function resolveFeatures(
  frame: DataFrame,
  options: FitOptions,
  partitionOn: string | null,
  splitBy: ReturnType<typeof checkedSplitColumn>,
): { features: string[]; idColumns: string[] } {
  const dropped = new Set(options.dropColumns ?? []);
  for (const d of dropped) frame.column(d);
  // A time column is a feature only when listed in `features`; a group column (an identifier) never.
  if (splitBy && !(splitBy.kind === 'time' && options.features?.includes(splitBy.column.name))) dropped.add(splitBy.column.name);
  if (options.features) {
    for (const f of options.features) {
      frame.column(f);
      if (f === options.target) throw new EngineError(`The target column ${f} cannot also be a feature`, f);
      if (splitBy?.kind === 'group' && f === splitBy.column.name) throw new EngineError(`The group column ${f} (${splitBy.field}) cannot also be a feature`, splitBy.field);
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

