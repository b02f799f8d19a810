import {
  validateBoostFeatureParams,
  checkedBoostParams,
  validateFitMethod,
  type BoostFeatureParams,
  type BoostParams,
} from '../params/boosted';
import { resolveBoostParams } from './sizeDefaults';
import type { FitMethod } from '../params/table';
import { EngineError } from '../base/errors';
import { groupRows, type Column, type DataFrame } from '../data/frame';
import { identifierReason } from '../data/identifiers';
import { checkedTerms, type TermChoices } from '../params/terms';
import { withFeatureTypes } from './featureTypes';
import { DATASET_PARTITION } from '../model/partitions';
import { DEFAULT_SPLIT, type SplitSpec } from '../params/split';
import { checkedSplitColumn } from './splitColumn';
import { DEFAULT_PARAMS, validateAlpha, validateParams } from '../params/xplainable';
import type { FitOptions, Label, ModelParams, ModelType } from '../model/types';
import { isDefaultObjective, linkOf, resolveObjective, targetDomain, targetProblem, type ResolvedObjective } from '../params/objective';

const DEFAULT_ALPHA = 0.1;
const DEFAULT_SEED = 42;

/** A partition's rows, target and parameters. */
export interface PlannedPart {
  key: string;
  frame: DataFrame;
  y: Float64Array;
  /** The `boosted` parameters for this partition: the given ones, else the defaults for its size (resolved here once). */
  boost: BoostParams;
  /** The rows' weights scaled to mean 1 over all rows (absent or null: unweighted). */
  w?: Float64Array | null;
  /** Log exposure per row (absent or null: none). */
  offset?: Float64Array | null;
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
  /** The pair terms asked for and ruled out. */
  terms: TermChoices;
  /** Features binned in their categories' order (`ordinal` feature types). */
  ordinal: string[];
  /** Columns left out of the features because they look like identifiers, and why. */
  leftOut: LeftOutColumn[];
  objective: ResolvedObjective;
  weightColumn: string | null;
  exposureColumn: string | null;
  /** `boosted` only: bags stop early as BestRound's `adaptive` does (set for the class models of a multiclass fit). */
  adaptivePatience?: boolean;
  /** `__dataset__` first, then one entry per partition value. */
  parts: PlannedPart[];
}

export interface LeftOutColumn {
  column: string;
  reason: string;
}

/** Checks the options and splits the rows into partitions; rows whose target is missing are left out. */
export function planFit(source: DataFrame, options: FitOptions): FitPlan {
  const frame = withFeatureTypes(source, options.featureTypes);
  const { keep, y, boost, ...settings } = checkFit(frame, options);
  const data = keep.length === frame.nRows ? frame : frame.take(keep);
  const w = settings.weightColumn === null ? null : normalisedWeights(data.column(settings.weightColumn));
  const offset = settings.exposureColumn === null ? null : Float64Array.from(numbersOf(data.column(settings.exposureColumn)), Math.log);
  const part = (key: string, rows: DataFrame, target: Float64Array, rowW: Float64Array | null, rowOffset: Float64Array | null): PlannedPart => ({
    key,
    frame: rows,
    y: target,
    boost: resolveBoostParams(boost, target.length),
    ...(w || offset ? { w: rowW, offset: rowOffset } : {}),
  });
  const parts = [part(DATASET_PARTITION, data, y, w, offset)];
  if (settings.partitionOn !== null) {
    for (const [key, rows] of groupRows(data.column(settings.partitionOn), data.nRows)) {
      const take = (a: Float64Array | null) => (a ? Float64Array.from(rows, (r) => a[r]) : null);
      parts.push(part(key, data.take(rows), Float64Array.from(rows, (r) => y[r]), take(w), take(offset)));
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
  const objective = resolveObjective(options.objective, modelType);
  const weightColumn = options.weightColumn ?? null;
  const exposureColumn = options.exposureColumn ?? null;
  const method = validateFitMethod(options.method);
  checkRowColumns(frame, objective, weightColumn, exposureColumn, target, method);
  const splitBy = checkedSplitColumn(frame, options.split, target);
  const { features, idColumns, leftOut } = resolveFeatures(frame, options, partitionOn, splitBy, [weightColumn, exposureColumn]);
  const { y, keep, labels } = encodeTarget(targetCol, modelType);
  if (y.length === 0) throw new EngineError(`The target column ${target} has no values`, target);
  if (!isDefaultObjective(objective)) checkTargets(y, frame.nRows, objective, target);
  for (const column of [weightColumn, exposureColumn]) if (column !== null) checkPositive(frame.column(column), keep, column === weightColumn ? 'weight_column' : 'exposure_column');
  if (modelType === 'regressor' && y.every((v) => v === y[0])) {
    throw new EngineError(`The target column ${target} has a single value (${y[0]}) in every row; a model needs a target that varies`, target);
  }
  const interactions = typeof options.interactions === 'number' ? { interactions: options.interactions } : {};
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
    method,
    // The one check of the boosted parameters in the engine: each partition resolves its defaults from these.
    boost: checkedBoostParams({ ...options.boost, ...interactions }),
    boostFeature: validateBoostFeatureParams(options.boostFeature ?? {}),
    seed: options.seed ?? DEFAULT_SEED,
    split: options.split ?? DEFAULT_SPLIT,
    terms: checkedTerms(options.interactions, options.excludeInteractions, features),
    ordinal: Object.entries(options.featureTypes ?? {}).flatMap(([name, spec]) => (typeof spec === 'object' && features.includes(name) ? [name] : [])),
    leftOut,
    objective,
    weightColumn,
    exposureColumn,
    keep,
    y,
  };
}

/** The columns a fit with these options leaves out because they look like identifiers, and why. */
export function leftOutColumns(frame: DataFrame, options: FitOptions): LeftOutColumn[] {
  const typed = withFeatureTypes(frame, options.featureTypes);
  const rowColumns = [options.weightColumn ?? null, options.exposureColumn ?? null];
  return resolveFeatures(typed, options, options.partitionOn ?? null, checkedSplitColumn(typed, options.split, options.target), rowColumns).leftOut;
}

/**
 * The objective, weight and exposure columns fit together: the columns exist and are numeric, exposure goes with a
 * log link, and the `xplainable` method fits only today's losses, unweighted.
 */
function checkRowColumns(
  frame: DataFrame,
  objective: ResolvedObjective,
  weightColumn: string | null,
  exposureColumn: string | null,
  target: string,
  method: FitMethod,
): void {
  for (const [column, field] of [
    [weightColumn, 'weight_column'],
    [exposureColumn, 'exposure_column'],
  ] as const) {
    if (column === null) continue;
    if (!frame.has(column)) throw new EngineError(`${field} ${column} is not a column; the columns are: ${frame.names.join(', ')}`, field);
    if (column === target) throw new EngineError(`${field} cannot be the target column ${target}`, field);
    const col = frame.column(column);
    if (col.storage !== 'number') throw new EngineError(`${field} ${column} must be numeric; it is ${col.type}`, field);
  }
  if (exposureColumn !== null && linkOf(objective.name) !== 'log') {
    throw new EngineError(`exposure_column needs a log-link objective (poisson, tweedie or gamma); objective "${objective.name}" has none`, 'exposure_column');
  }
  if (method === 'xplainable') {
    if (!isDefaultObjective(objective)) throw new EngineError(`The xplainable method fits squared error or log loss only; objective "${objective.name}" needs method "boosted"`, 'objective');
    if (weightColumn !== null) throw new EngineError('The xplainable method fits unweighted rows only; weight_column needs method "boosted"', 'weight_column');
  }
}

/** A target the objective cannot take is an error naming how many rows and the objective. */
function checkTargets(y: Float64Array, nRows: number, objective: ResolvedObjective, target: string): void {
  const missing = nRows - y.length;
  if (missing > 0) throw new EngineError(`${missing} row(s) have no ${target} value; objective "${objective.name}" needs a target on every row`, target);
  let bad = 0;
  for (let i = 0; i < y.length; i++) if (targetProblem(objective.name, y[i])) bad++;
  if (bad > 0) throw new EngineError(`${bad} row(s) of ${target} are not ${targetDomain(objective.name)}, which objective "${objective.name}" needs`, target);
}

/** Every kept row's weight or exposure is present and positive; otherwise an error naming the column and the count. */
function checkPositive(col: Column, keep: Int32Array, field: string): void {
  const values = numbersOf(col);
  let missing = 0;
  let bad = 0;
  for (const r of keep) {
    if (values[r] !== values[r]) missing++;
    else if (!(values[r] > 0)) bad++;
  }
  if (missing) throw new EngineError(`${field} ${col.name} is missing on ${missing} row(s); every row needs one`, field);
  if (bad) throw new EngineError(`${field} ${col.name} is zero or negative on ${bad} row(s); it must be positive`, field);
}

function numbersOf(col: Column): Float64Array {
  if (col.storage !== 'number') throw new EngineError(`Column ${col.name} must be numeric; it is ${col.type}`, col.name);
  return col.values;
}

/** A weight column's values scaled to mean 1, so that weighted counts read as rows (min_samples_leaf keeps its sense). */
function normalisedWeights(col: Column): Float64Array {
  const values = numbersOf(col);
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  const scale = values.length / sum;
  return Float64Array.from(values, (v) => v * scale);
}

function resolveFeatures(
  frame: DataFrame,
  options: FitOptions,
  partitionOn: string | null,
  splitBy: ReturnType<typeof checkedSplitColumn>,
  rowColumns: (string | null)[],
): { features: string[]; idColumns: string[]; leftOut: LeftOutColumn[] } {
  const dropped = new Set(options.dropColumns ?? []);
  for (const d of dropped) frame.column(d);
  for (const k of options.keepColumns ?? []) {
    if (!frame.has(k)) throw new EngineError(`keep_columns names ${k}, which is not a column; columns are: ${frame.names.join(', ')}`, 'keep_columns');
  }
  // A time column is a feature only when listed in `features`; a group column (an identifier) never.
  if (splitBy && !(splitBy.kind === 'time' && options.features?.includes(splitBy.column.name))) dropped.add(splitBy.column.name);
  if (options.features) {
    for (const f of options.features) {
      frame.column(f);
      if (f === options.target) throw new EngineError(`The target column ${f} cannot also be a feature`, f);
      if (splitBy?.kind === 'group' && f === splitBy.column.name) throw new EngineError(`The group column ${f} (${splitBy.field}) cannot also be a feature`, splitBy.field);
      if (rowColumns.includes(f)) throw new EngineError(`Column ${f} weighs or exposes the rows; it cannot also be a feature`, f);
    }
    return { features: options.features.filter((f) => !dropped.has(f)), idColumns: [], leftOut: [] };
  }
  const kept = new Set([...(options.keepColumns ?? []), ...Object.keys(options.featureTypes ?? {})]);
  const candidates = frame.columns.filter((c) => c.name !== options.target && c.name !== partitionOn && !dropped.has(c.name) && !rowColumns.includes(c.name));
  const leftOut = candidates.flatMap((c): LeftOutColumn[] => {
    const reason = kept.has(c.name) ? null : identifierReason(c);
    return reason === null ? [] : [{ column: c.name, reason }];
  });
  const out = new Set(leftOut.map((l) => l.column));
  const idColumns = frame.columns.filter((c) => (c.type === 'id' && !kept.has(c.name)) || out.has(c.name)).map((c) => c.name);
  const features = candidates.filter((c) => !idColumns.includes(c.name)).map((c) => c.name);
  if (features.length === 0) throw new EngineError('No feature columns are left to train on', 'features');
  return { features, idColumns, leftOut };
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

