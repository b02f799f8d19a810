import { calibrate } from './calibration';
import { EngineError } from '../base/errors';
import { groupRows, type DataFrame } from '../data/frame';
import { DATASET_PARTITION } from './partitions';
import { axisIndices, axisSize, leafIndices } from './lookup';
import { pairName, partitionPairs } from './pairs';
import type { Label, PartitionModel, PredictionResult, PredictOptions, TransparentModel } from './types';
import { linkOf, type Link } from '../params/objective';

/** Every feature of any partition, `__dataset__`'s first, in training order. */
export function modelFeatures(model: TransparentModel): string[] {
  const names = new Set<string>();
  for (const p of model.partitions.values()) for (const f of p.features) names.add(f.name);
  return [...names];
}

export function datasetPartition(model: TransparentModel): PartitionModel {
  const p = model.partitions.get(DATASET_PARTITION);
  if (!p) throw new EngineError(`The model has no ${DATASET_PARTITION} partition`, 'partitions');
  return p;
}

/** Every pair term of any partition, by name, `__dataset__`'s first. */
export function modelPairNames(model: TransparentModel): string[] {
  const names = new Set<string>();
  for (const p of model.partitions.values()) for (const pair of partitionPairs(p)) names.add(pairName(pair));
  return [...names];
}

/**
 * Routes every row to its partition's model (unknown or missing partition values → `__dataset__`) and returns column
 * arrays in input row order. For every row, score = base value + Σ contributions (features in order, then pairs).
 */
export function predict(model: TransparentModel, frame: DataFrame, options: PredictOptions = {}): PredictionResult {
  const threshold = options.threshold ?? 0.5;
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) {
    throw new EngineError(`threshold must be between 0 and 1 (got ${String(threshold)})`, 'threshold');
  }
  const n = frame.nRows;
  const features = modelFeatures(model);
  const warnings = features
    .filter((f) => !frame.has(f))
    .map((f) => `Feature column ${f} is missing; its values are treated as missing`);
  const fallback = datasetPartition(model);
  const scores = new Float64Array(n);
  const baseValues = new Float64Array(n);
  const contributions = options.explain ? Object.fromEntries(features.map((f) => [f, new Float64Array(n)])) : null;
  const pairNames = modelPairNames(model);
  const pairContributions = options.explain && pairNames.length ? Object.fromEntries(pairNames.map((p) => [p, new Float64Array(n)])) : null;
  const classifier = model.modelType === 'classifier';
  const probabilities = classifier ? new Float64Array(n) : null;
  const predictions: Label[] = new Array(n);
  const [negative, positive] = model.targetLabels ?? [0, 1];
  const logOdds = model.method === 'boosted';
  const logLink = modelLink(model) === 'log';
  const exposure = logLink ? exposureOf(model, frame, warnings) : null;

  for (const [part, rows] of routeRows(model, frame, warnings)) {
    const sub = rows ? frame.take(rows) : frame;
    const m = sub.nRows;
    // Row i of `sub` is row rowOf[i] of the input.
    const rowOf = rows ?? Int32Array.from({ length: m }, (_, i) => i);
    for (let i = 0; i < m; i++) scores[rowOf[i]] = baseValues[rowOf[i]] = part.baseValue;
    // One buffer serves every feature's leaf indices in turn.
    const leaves = new Int32Array(m);
    for (const f of part.features) {
      const idx = leafIndices(f, sub.has(f.name) ? sub.column(f.name) : undefined, m, leaves);
      const s = f.leaves.score;
      const out = contributions?.[f.name];
      for (let i = 0; i < m; i++) {
        const c = s[idx[i]];
        scores[rowOf[i]] += c;
        if (out) out[rowOf[i]] = c;
      }
    }
    const other = new Int32Array(m);
    for (const pair of partitionPairs(part)) {
      const [first, second] = pair.axes.map((axis, k) => axisIndices(axis, sub.has(axis.feature) ? sub.column(axis.feature) : undefined, m, k === 0 ? leaves : other));
      const width = axisSize(pair.axes[1]);
      const s = pair.score;
      const out = pairContributions?.[pairName(pair)];
      for (let i = 0; i < m; i++) {
        const c = s[first[i] * width + second[i]];
        scores[rowOf[i]] += c;
        if (out) out[rowOf[i]] = c;
      }
    }
    const [lo, hi] = part.predictionRange;
    for (let i = 0; i < m; i++) {
      const r = rowOf[i];
      if (probabilities) {
        probabilities[r] = probability(model, part, scores[r]);
        // The reference algorithm thresholds the score itself; a log-odds score is thresholded as a probability.
        predictions[r] = (logOdds ? probabilities[r] : scores[r]) > threshold ? positive : negative;
      } else if (logLink) predictions[r] = (exposure ? exposure[r] : 1) * Math.exp(scores[r]);
      else predictions[r] = Math.min(hi, Math.max(lo, scores[r]));
    }
  }
  return { n, baseValue: fallback.baseValue, baseValues, predictions, scores, probabilities, contributions, pairContributions, warnings };
}

/** How a model's additive score maps to its prediction. */
export function modelLink(model: Pick<TransparentModel, 'modelType' | 'objective'>): Link {
  return linkOf(model.objective?.name ?? (model.modelType === 'classifier' ? 'log_loss' : 'squared_error'));
}

/**
 * Each row's exposure, for a model fitted with one: a row without it (or a frame without the column) is predicted
 * per unit of exposure (1), with a warning.
 */
function exposureOf(model: TransparentModel, frame: DataFrame, warnings: string[]): Float64Array | null {
  const name = model.exposureColumn;
  if (!name) return null;
  if (!frame.has(name)) {
    warnings.push(`Exposure column ${name} is missing; every row is predicted per unit of exposure`);
    return null;
  }
  const col = frame.column(name);
  const values = col.storage === 'number' ? col.values : new Float64Array(frame.nRows).fill(NaN);
  let missing = 0;
  const out = Float64Array.from(values, (v) => (v > 0 ? v : (missing++, 1)));
  if (missing) warnings.push(`Exposure column ${name} has no positive value on ${missing} row(s); they are predicted per unit of exposure`);
  return out;
}

/** A classifier's probability of the positive label for an additive score. */
export function probability(model: TransparentModel, part: PartitionModel, score: number): number {
  if (model.method === 'boosted') return 1 / (1 + Math.exp(-score));
  return part.calibration ? calibrate(part.calibration, score) : Math.min(1, Math.max(0, score));
}

/** The rows each partition model scores; `null` rows means every row of the frame. */
function routeRows(model: TransparentModel, frame: DataFrame, warnings: string[]): [PartitionModel, Int32Array | null][] {
  const fallback = datasetPartition(model);
  if (model.partitionOn === null) return [[fallback, null]];
  if (!frame.has(model.partitionOn)) {
    warnings.push(`Partition column ${model.partitionOn} is missing; every row uses the ${DATASET_PARTITION} model`);
    return [[fallback, null]];
  }
  const routed: [PartitionModel, Int32Array | null][] = [];
  const assigned = new Uint8Array(frame.nRows);
  for (const [key, rows] of groupRows(frame.column(model.partitionOn), frame.nRows)) {
    const part = key === DATASET_PARTITION ? undefined : model.partitions.get(key);
    if (!part) continue;
    routed.push([part, rows]);
    for (const r of rows) assigned[r] = 1;
  }
  const rest: number[] = [];
  for (let r = 0; r < frame.nRows; r++) if (!assigned[r]) rest.push(r);
  if (rest.length === frame.nRows) return [[fallback, null]];
  if (rest.length) routed.push([fallback, Int32Array.from(rest)]);
  return routed;
}
