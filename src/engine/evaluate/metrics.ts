import { EngineError } from '../base/errors';
import { binaryLabels, type DataFrame } from '../data/frame';
import { predict } from '../model/predict';
import { histogram } from '../data/histogram';
import { lowerBound } from '../base/search';
import { meanLoss } from '../model/objectiveLoss';
import { resolveObjective, type ResolvedObjective } from '../params/objective';
import type {
  ClassifierEvaluation,
  Label,
  RegressorEvaluation,
  RegressorMetrics,
  ThresholdScore,
  TransparentModel,
} from '../model/types';

const EPS = 1e-9;
const LOG_CLIP = 1e-15;
const THRESHOLDS = Array.from({ length: 101 }, (_, k) => k / 100);
const CHART_POINTS = 10000;
/** The bins of a regressor's residual histogram. */
export const RESIDUAL_BINS = 20;

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);

export interface ClassifierEvaluationOptions {
  threshold?: number;
  /** Row weights: every metric weighted as scikit-learn weighs with `sample_weight`. */
  weights?: ArrayLike<number> | null;
  /** Class names used in `probability_bins` (default "0" and "1"). */
  labels?: [Label, Label];
}

/**
 * Binary-classification metrics of probabilities `p` against 0/1 targets `y` (§8 and the contract's metric set):
 * threshold metrics use p > threshold; curves use the 101 thresholds 0.00…1.00; `roc_auc` is the exact rank AUC.
 */
export function evaluateClassifier(
  y: ArrayLike<number>,
  p: ArrayLike<number>,
  options: ClassifierEvaluationOptions = {},
): ClassifierEvaluation {
  const n = y.length;
  if (p.length !== n) throw new EngineError(`Got ${n} targets but ${p.length} probabilities`, 'p');
  const threshold = options.threshold ?? 0.5;
  const w = options.weights ?? null;
  const prob = new Float64Array(n);
  for (let i = 0; i < n; i++) prob[i] = p[i] > 1 ? 1 : p[i] > 0 ? p[i] : 0;
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  let brier = 0;
  let logLoss = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const wi = w ? w[i] : 1;
    const pos = y[i] === 1;
    const pred = prob[i] > threshold;
    if (pred && pos) tp += wi;
    else if (pred) fp += wi;
    else if (pos) fn += wi;
    else tn += wi;
    total += wi;
    brier += wi * (prob[i] - y[i]) ** 2;
    const pc = Math.min(1 - LOG_CLIP, Math.max(LOG_CLIP, prob[i]));
    logLoss -= wi * (pos ? Math.log(pc) : Math.log(1 - pc));
  }
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  const mccDen = Math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
  return {
    accuracy: n ? (tp + tn) / total : 0,
    roc_auc: w ? weightedAuc(y, prob, w) : rankAuc(y, prob),
    f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0,
    precision,
    recall,
    log_loss: n ? finite(logLoss / total) : null,
    brier: n ? brier / total : 0,
    mcc: mccDen > 0 ? (tp * tn - fp * fn) / mccDen : null,
    confusion_matrix: [
      [tn, fp],
      [fn, tp],
    ],
    ...classifierCurves(classifierHistograms(y, prob, w), options.labels),
  };
}

/**
 * A binary classifier's rows counted by probability, all its curves need: `above[c][j]` counts the rows of class c
 * (0 or 1) whose probability exceeds exactly j of the thresholds 0.00…1.00, `bins[c][b]` those whose probability
 * rounds to b / 100. Counted in memory or in a database, the curves are derived from them alike.
 */
export interface ClassifierHistograms {
  above: [Float64Array, Float64Array];
  bins: [number[], number[]];
}

/** The number of thresholds 0.00…1.00 and of probability bins. */
export const CURVE_POINTS = THRESHOLDS.length;

/** The histograms of probabilities `p` (within [0, 1]) against 0/1 targets `y`, each row counted with its weight. */
function classifierHistograms(y: ArrayLike<number>, p: Float64Array, w: ArrayLike<number> | null): ClassifierHistograms {
  const h: ClassifierHistograms = { above: [new Float64Array(CURVE_POINTS + 1), new Float64Array(CURVE_POINTS + 1)], bins: [new Array<number>(CURVE_POINTS).fill(0), new Array<number>(CURVE_POINTS).fill(0)] };
  for (let i = 0; i < p.length; i++) {
    const cls = y[i] === 1 ? 1 : 0;
    // Number of thresholds strictly below p[i].
    const wi = w ? w[i] : 1;
    h.above[cls][lowerBound(THRESHOLDS, p[i])] += wi;
    if (y[i] === cls) h.bins[cls][Math.round(p[i] * 100)] += wi;
  }
  return h;
}

/**
 * The curves of a binary classifier from its histograms: confusion counts at every threshold, the ROC and
 * precision-recall curves, the area under the latter and the probability bins, named by `labels` (default "0", "1").
 */
export function classifierCurves(h: ClassifierHistograms, labels: [Label, Label] = ['0', '1']): Pick<ClassifierEvaluation, 'scores' | 'roc' | 'precision_recall_curve' | 'auc_pr' | 'probability_bins'> {
  const scores = thresholdScores(h.above[1], h.above[0]);
  const precision_recall_curve = precisionRecallCurve(scores);
  const n = h.above[0].reduce((s, v) => s + v, 0) + h.above[1].reduce((s, v) => s + v, 0);
  return {
    scores,
    roc: { fpr: scores.map((s) => s.fp / (s.fp + s.tn + EPS)), tpr: scores.map((s) => s.recall) },
    precision_recall_curve,
    auc_pr: n ? trapezoid(precision_recall_curve.recall, precision_recall_curve.precision) : null,
    probability_bins: [0, 1].map((cls) => ({ class: String(labels[cls]), values: [...h.bins[cls]] })),
  };
}

/** Confusion counts for p > t at t = 0.00, 0.01, …, 1.00 from the rows counted by how many thresholds they exceed. */
function thresholdScores(posAbove: Float64Array, negAbove: Float64Array): ThresholdScore[] {
  const T = THRESHOLDS.length;
  const positives = posAbove.reduce((s, v) => s + v, 0);
  const negatives = negAbove.reduce((s, v) => s + v, 0);
  const rows = positives + negatives;
  const out: ThresholdScore[] = [];
  // Rows counted at index j exceed thresholds 0..j-1, so the count above threshold k sums indices k+1..T.
  let tp = 0;
  let fp = 0;
  const tpAt = new Float64Array(T);
  const fpAt = new Float64Array(T);
  for (let k = T - 1; k >= 0; k--) {
    tp += posAbove[k + 1];
    fp += negAbove[k + 1];
    tpAt[k] = tp;
    fpAt[k] = fp;
  }
  for (let k = 0; k < T; k++) {
    const t = tpAt[k];
    const f = fpAt[k];
    const fn = positives - t;
    const tn = negatives - f;
    const precision = t / (t + f + EPS);
    const recall = t / (t + fn + EPS);
    out.push({
      threshold: THRESHOLDS[k],
      tp: t,
      fp: f,
      tn,
      fn,
      precision,
      recall,
      specificity: tn / (tn + f + EPS),
      accuracy: rows ? (t + tn) / rows : 0,
      f1: (2 * precision * recall) / (precision + recall + EPS),
    });
  }
  return out;
}

/**
 * The precision-recall curve over the thresholds, as scikit-learn's `precision_recall_curve` draws it: a threshold
 * that predicts no positive is the curve's start at recall 0 with precision 1 (its precision is 0/0), never precision
 * 0, which would draw a line from the origin that no classifier has. `auc_pr` is the area under these same points.
 */
function precisionRecallCurve(scores: readonly ThresholdScore[]): { precision: number[]; recall: number[] } {
  return {
    precision: scores.map((s) => (s.tp + s.fp > 0 ? s.precision : 1)),
    recall: scores.map((s) => s.recall),
  };
}

/**
 * Exact ROC AUC as the Mann–Whitney U (pairs where the positive scores higher, ties counting a half); null when only
 * one class is present. Sorting each class's scores as typed arrays keeps it fast on hundreds of thousands of rows.
 */
function rankAuc(y: ArrayLike<number>, p: Float64Array): number | null {
  let positives = 0;
  for (let i = 0; i < p.length; i++) if (y[i] === 1) positives++;
  const negatives = p.length - positives;
  if (positives === 0 || negatives === 0) return null;
  const pos = new Float64Array(positives);
  const neg = new Float64Array(negatives);
  for (let i = 0, a = 0, b = 0; i < p.length; i++) {
    if (y[i] === 1) pos[a++] = p[i];
    else neg[b++] = p[i];
  }
  pos.sort();
  neg.sort();
  let below = 0;
  let notAbove = 0;
  let u = 0;
  for (const s of pos) {
    while (below < negatives && neg[below] < s) below++;
    if (notAbove < below) notAbove = below;
    while (notAbove < negatives && neg[notAbove] === s) notAbove++;
    u += below + (notAbove - below) / 2;
  }
  return u / (positives * negatives);
}

/**
 * ROC AUC with row weights, as scikit-learn's `roc_auc_score(sample_weight=…)`: the weighted share of (positive,
 * negative) pairs the positive scores higher, ties counting a half. Null when a class has no weight.
 */
function weightedAuc(y: ArrayLike<number>, p: Float64Array, w: ArrayLike<number>): number | null {
  const order = Array.from({ length: p.length }, (_, i) => i).sort((a, b) => p[a] - p[b]);
  let negBelow = 0;
  let u = 0;
  let positives = 0;
  for (let k = 0; k < order.length; ) {
    let pos = 0;
    let neg = 0;
    const score = p[order[k]];
    for (; k < order.length && p[order[k]] === score; k++) {
      if (y[order[k]] === 1) pos += w[order[k]];
      else neg += w[order[k]];
    }
    u += pos * (negBelow + neg / 2);
    negBelow += neg;
    positives += pos;
  }
  return positives > 0 && negBelow > 0 ? u / (positives * negBelow) : null;
}

function trapezoid(x: number[], y: number[]): number {
  const idx = x.map((_, i) => i).sort((a, b) => x[a] - x[b] || y[b] - y[a]);
  let area = 0;
  for (let k = 1; k < idx.length; k++) {
    area += ((x[idx[k]] - x[idx[k - 1]]) * (y[idx[k]] + y[idx[k - 1]])) / 2;
  }
  return area;
}

export interface RegressorEvaluationOptions {
  /** Row weights: every metric weighted as scikit-learn weighs with `sample_weight`. */
  weights?: ArrayLike<number> | null;
  /** A model's objective other than squared error adds its own metrics (mean deviance, pinball loss and coverage). */
  objective?: ResolvedObjective | null;
}

/**
 * Regression metrics (the contract's set, and the objective's), the first 10,000 (true, predicted) pairs and a
 * residual histogram.
 */
export function evaluateRegressor(y: ArrayLike<number>, yhat: ArrayLike<number>, options: RegressorEvaluationOptions = {}): RegressorEvaluation {
  const n = y.length;
  if (yhat.length !== n) throw new EngineError(`Got ${n} targets but ${yhat.length} predictions`, 'yhat');
  const w = options.weights ?? null;
  let yMean = 0;
  let eMean = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const wi = w ? w[i] : 1;
    yMean += wi * y[i];
    eMean += wi * (y[i] - yhat[i]);
    total += wi;
  }
  yMean /= total;
  eMean /= total;
  let ssRes = 0;
  let ssTot = 0;
  let ssE = 0;
  let abs = 0;
  let ape = 0;
  let zeroActual = false;
  const residuals = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const wi = w ? w[i] : 1;
    const e = y[i] - yhat[i];
    residuals[i] = e;
    ssRes += wi * e * e;
    ssTot += wi * (y[i] - yMean) ** 2;
    ssE += wi * (e - eMean) ** 2;
    abs += wi * Math.abs(e);
    if (y[i] === 0) zeroActual = true;
    else ape += (wi * Math.abs(e)) / Math.abs(y[i]);
  }
  const limit = Math.min(n, CHART_POINTS);
  return {
    r2: ssTot > 0 ? 1 - ssRes / ssTot : null,
    rmse: Math.sqrt(ssRes / total),
    mae: abs / total,
    // Undefined where an actual value is 0: null, never a huge finite number.
    mape: zeroActual ? null : ape / total,
    explained_variance: ssTot > 0 ? 1 - ssE / ssTot : null,
    ...(options.objective ? objectiveMetrics(options.objective, y, yhat, w) : {}),
    charts: { true: Array.from({ length: limit }, (_, i) => y[i]), prediction: Array.from({ length: limit }, (_, i) => yhat[i]) },
    residual_bins: histogram(residuals, RESIDUAL_BINS),
  };
}

/** The metrics of an objective other than squared error: its mean deviance, or the pinball loss and coverage. */
function objectiveMetrics(o: ResolvedObjective, y: ArrayLike<number>, yhat: ArrayLike<number>, w: ArrayLike<number> | null): Partial<RegressorMetrics> {
  const mean = (loss: ResolvedObjective) => finite(meanLoss(loss, y, yhat, w));
  switch (o.name) {
    case 'poisson':
      return { poisson_deviance: mean(o) };
    case 'gamma':
      return { gamma_deviance: mean(o) };
    case 'tweedie':
      return { tweedie_deviance: mean(o) };
    case 'quantile': {
      let below = 0;
      let total = 0;
      for (let i = 0; i < y.length; i++) {
        const wi = w ? w[i] : 1;
        if (y[i] <= yhat[i]) below += wi;
        total += wi;
      }
      return { pinball_loss: mean(o), coverage: total > 0 ? below / total : null };
    }
    default:
      return {};
  }
}

/**
 * Scores a model on a frame that holds the target column: classifiers are judged on their calibrated probabilities
 * (the additive score when the model has no calibration map), regressors on their clipped predictions. Rows with a
 * missing target, or a label the model does not know, are left out.
 */
export function evaluateModel(
  model: TransparentModel,
  frame: DataFrame,
  options: { threshold?: number } = {},
): ClassifierEvaluation | RegressorEvaluation {
  const target = frame.column(model.target);
  const result = predict(model, frame, { threshold: options.threshold });
  if (model.modelType === 'regressor' && target.storage !== 'number') throw new EngineError(`The target column ${model.target} is not numeric`, model.target);
  const { rows, y } = usableTarget(model, frame);
  const weights = rowWeights(model, frame, rows);
  if (model.modelType === 'regressor') {
    const objective = model.objective ? resolveObjective(model.objective, 'regressor') : null;
    return evaluateRegressor(y, Float64Array.from(rows, (r) => result.predictions[r] as number), { weights, objective });
  }
  let usable = result.probabilities as Float64Array;
  if (rows.length < frame.nRows) {
    const p = usable;
    usable = new Float64Array(rows.length);
    for (let i = 0; i < rows.length; i++) usable[i] = p[rows[i]];
  }
  return evaluateClassifier(y, usable, { threshold: options.threshold, labels: model.targetLabels ?? undefined, weights });
}

/**
 * The weights of a weighted model's usable rows (null when unweighted, or when the frame lacks the column); a row
 * whose weight is missing or not positive weighs 0.
 */
export function rowWeights(model: Pick<TransparentModel, 'weightColumn'>, frame: DataFrame, rows: Int32Array): Float64Array | null {
  const name = model.weightColumn;
  if (!name || !frame.has(name)) return null;
  const col = frame.column(name);
  if (col.storage !== 'number') return null;
  return Float64Array.from(rows, (r) => (col.values[r] > 0 ? col.values[r] : 0));
}

/** The rows with a usable target, and the target as numbers (classifier: 1 for the positive label). */
export function usableTarget(model: Pick<TransparentModel, 'modelType' | 'target' | 'targetLabels'>, frame: DataFrame): { rows: Int32Array; y: Float64Array } {
  if (!frame.has(model.target)) return { rows: new Int32Array(0), y: new Float64Array(0) };
  const col = frame.column(model.target);
  const rows = new Int32Array(frame.nRows);
  const y = new Float64Array(frame.nRows);
  let kept = 0;
  if (model.modelType === 'regressor') {
    for (let r = 0; r < frame.nRows; r++) {
      const v = col.storage === 'number' ? col.values[r] : NaN;
      if (Number.isNaN(v)) continue;
      rows[kept] = r;
      y[kept++] = v;
    }
  } else {
    const [negative, positive] = (model.targetLabels ?? []).map(String);
    const labels = binaryLabels(col, frame.nRows, negative, positive);
    for (let r = 0; r < frame.nRows; r++) {
      if (labels[r] < 0) continue;
      rows[kept] = r;
      y[kept++] = labels[r];
    }
  }
  return { rows: rows.subarray(0, kept), y: y.subarray(0, kept) };
}
