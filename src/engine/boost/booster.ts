import type { BoostParams } from '../params/boosted';
import { SMALL_DATA_ROWS } from '../plan/sizeDefaults';
import { mulberry32 } from '../base/prng';
import { LogisticRows, SquaredRows, type GradientState } from './rowState';
import { SquaredHistograms, useHistograms } from './histogramState';
import { innerSplitBy, type InnerSplitBy } from './splitKeys';
import { ObjectiveRows, baseScore } from './objectiveRows';
import type { ResolvedObjective } from '../params/objective';

/** A hessian floor that keeps Newton steps finite where probabilities saturate. */
export const MIN_HESSIAN = 1e-6;
/**
 * A leaf whose rows' hessians sum to less than this gets no step, and no split may leave one: its rows' classes are
 * already certain. Without it, a class separable on the training rows has its scores pushed towards ±∞ round after
 * round, each round a little better on the validation rows, until max_rounds (as in EBM's min_hessian).
 */
export const MIN_LEAF_HESSIAN = 1e-4;
/** A validation loss must improve by this fraction to count as progress. */
const MIN_IMPROVEMENT = 1e-7;
/** The least patience of BestRound's `adaptive` (see there). */
const ADAPTIVE_PATIENCE = 10;
/** Rounds run when the data is too small to hold out validation rows. */
const UNVALIDATED_ROUNDS = 100;
/** Rounds at the start whose numeric splits are drawn at random on small data (see SMALL_DATA_ROWS). */
const SMOOTHING_ROUNDS = 25;
/**
 * A feature with rare categories orders its categories by their gradient ratio drawn towards their parent's, as if
 * each had this many more rows at the parent's ratio (as LightGBM's `cat_smooth`): a category of few rows no longer
 * sorts to an end, and grouped with others, by chance.
 */
const CATEGORY_SMOOTHING_ROWS = 10;

/** What one bag needs: binned features (last bin = missing) and the target, all for the same rows. */
export interface BoostData {
  classifier: boolean;
  y: Float64Array;
  codes: Uint16Array[];
  nBins: number[];
  /** Numeric features' value bins are ordered; categorical ones are re-ordered by gradient each step. */
  ordered: boolean[];
  /** Features whose categories are ordered by smoothed gradient ratios (those with rare categories); absent: none. */
  smoothed?: boolean[];
  /** Steps to start from instead of none (a linear model's, on small data), with their intercept. */
  start?: { intercept: number; tables: Float64Array[] } | null;
  /** A time or group split's keys for the early-stopping rows (absent: rows at random). */
  inner?: InnerSplitBy | null;
  /** Boosts this objective, weighted, on the rows (ObjectiveRows); absent: today's squared error or log loss. */
  objective?: ResolvedObjective | null;
  /** Per row, its weight (mean 1). */
  weights?: Float64Array | null;
  /** Per row, a fixed part of its score: log exposure. */
  offset?: Float64Array | null;
  /** Stop early as BestRound's `adaptive` does (absent: after `early_stopping_rounds` rounds without progress). */
  adaptivePatience?: boolean;
}

export interface BagResult {
  intercept: number;
  /** Per feature, one additive step per bin, at the round with the best validation loss. */
  tables: Float64Array[];
  rounds: number;
  /** The validation loss of the steps kept (NaN without validation rows). */
  loss: number;
}

/**
 * Cyclic gradient boosting of one bag: each round visits every feature in turn and adds, with shrinkage, a small
 * tree over that feature's bins fitted (Newton steps) to what the current model leaves unexplained. Rows are
 * split into an inner training part and a validation part that decides when to stop.
 * Classifier scores are log-odds (logistic loss); regressor scores are on the target's scale (squared loss), or on
 * the link scale of `data.objective`.
 */
export function boostBag(data: BoostData, params: BoostParams, seed: number, rows?: Int32Array): BagResult {
  const small = (rows?.length ?? data.y.length) <= SMALL_DATA_ROWS;
  const { train, valid } = innerSplit(rows ?? Int32Array.from({ length: data.y.length }, (_, i) => i), params.validation_size, seed, data.inner);
  const nT = train.length;
  const order = concat(train, valid);
  const n = order.length;
  const y = Float64Array.from(order, (r) => data.y[r]);
  const codes = data.codes.map((c) => gather(c, order));
  const w = data.weights ? Float64Array.from(order, (r) => (data.weights as Float64Array)[r]) : null;
  const offset = data.offset ? Float64Array.from(order, (r) => (data.offset as Float64Array)[r]) : null;
  const objective = data.objective ?? null;
  const intercept = data.start?.intercept ?? (objective ? baseScore(objective, y, w, offset && offset.map(Math.exp), nT) : meanScore(y, nT, data.classifier));
  const tables = data.start?.tables.map((t) => t.slice()) ?? data.nBins.map((b) => new Float64Array(b));
  const start = new Float64Array(n).fill(intercept);
  if (offset) for (let i = 0; i < n; i++) start[i] += offset[i];
  if (data.start) tables.forEach((t, j) => codes[j].forEach((code, i) => (start[i] += t[code])));
  const counts = data.nBins.map((b, j) => binCounts(codes[j], 0, nT, b, w));
  const state = objective ? new ObjectiveRows(objective, y, w, codes, nT, start) : gradientState(data.classifier, y, codes, data.nBins, nT, start, counts);

  const k = codes.length;
  const maxBins = data.nBins.reduce((m, b) => Math.max(m, b), 2);
  const gSum = new Float64Array(maxBins);
  const hSum = new Float64Array(maxBins);
  const step = new Float64Array(maxBins);
  const tree = new StepTree(maxBins, params.max_leaves);
  const noValidation = n === nT;

  const best = new BestRound(noValidation ? 0 : state.validationLoss(), tables, params.early_stopping_rounds, data.adaptivePatience);
  state.histogram(0, gSum, hSum);
  const random = mulberry32(seed ^ 0x5bd1e995);
  const smoothingRounds = small ? SMOOTHING_ROUNDS : 0;
  const rounds = noValidation ? Math.min(params.max_rounds, UNVALIDATED_ROUNDS) : params.max_rounds;
  for (let round = 1; round <= rounds; round++) {
    for (let j = 0; j < k; j++) {
      const bins = data.nBins[j];
      fitStep(gSum, hSum, counts[j], bins, data.ordered[j], params, step, round <= smoothingRounds && data.ordered[j] ? random : null, tree, data.smoothed?.[j] === true);
      const t = tables[j];
      for (let b = 0; b < bins; b++) t[b] += step[b];
      state.apply(j, step, j + 1 < k ? j + 1 : 0, gSum, hSum);
    }
    if (noValidation) best.round = round;
    else if (best.stop(round, state.validationLoss(), tables)) break;
  }
  return { intercept, tables: noValidation ? tables : best.tables, rounds: best.round, loss: noValidation ? NaN : best.loss };
}

/**
 * The round whose validation loss is the lowest so far, with its tables; boosting stops after `patience` rounds without
 * one. With `adaptive`, the patience is half the rounds the best one took, within [ADAPTIVE_PATIENCE, patience]: a
 * bag that peaks early (and then overfits) stops soon, one still learning slowly after many rounds waits longer.
 */
export class BestRound {
  round = 0;
  tables: Float64Array[];

  constructor(
    public loss: number,
    tables: Float64Array[],
    private readonly patience: number,
    private readonly adaptive = false,
  ) {
    this.tables = tables.map((t) => t.slice());
  }

  /** Records a round's loss and tables; true when boosting should stop. */
  stop(round: number, loss: number, tables: Float64Array[]): boolean {
    if (loss < this.loss - Math.abs(this.loss) * MIN_IMPROVEMENT) {
      this.loss = loss;
      this.round = round;
      this.tables = tables.map((t) => t.slice());
      return false;
    }
    const patience = this.adaptive ? Math.min(this.patience, Math.max(ADAPTIVE_PATIENCE, this.round / 2)) : this.patience;
    return round - this.round >= patience;
  }
}

/** The constant score of the training rows: their mean, or its log-odds for a classifier. */
function meanScore(y: Float64Array, nT: number, classifier: boolean): number {
  let mean = 0;
  for (let i = 0; i < nT; i++) mean += y[i];
  mean /= Math.max(1, nT);
  if (!classifier) return mean;
  const p = Math.min(1 - 1e-9, Math.max(1e-9, mean));
  return Math.log(p / (1 - p));
}

/** The state that boosts these rows fastest: logistic on the rows; squared on pairwise histograms where they fit. */
export function gradientState(
  classifier: boolean,
  y: Float64Array,
  codes: Uint16Array[],
  nBins: number[],
  nT: number,
  start: Float64Array,
  counts: Float64Array[],
): GradientState {
  if (classifier) return new LogisticRows(y, codes, nT, start);
  return useHistograms(nBins, y.length) ? new SquaredHistograms(y, codes, nBins, nT, start, counts) : new SquaredRows(y, codes, nT, start, counts);
}

export function gather(codes: Uint16Array, order: Int32Array): Uint16Array {
  const out = new Uint16Array(order.length);
  for (let i = 0; i < order.length; i++) out[i] = codes[order[i]];
  return out;
}

/** Rows per bin over [from, to), or their summed weights. */
export function binCounts(codes: Uint16Array, from: number, to: number, bins: number, w: Float64Array | null = null): Float64Array {
  const c = new Float64Array(bins);
  if (w) for (let i = from; i < to; i++) c[codes[i]] += w[i];
  else for (let i = from; i < to; i++) c[codes[i]]++;
  return c;
}

/**
 * One boosting step for a feature: a tree of at most `max_leaves` leaves over its value bins (kept in order for
 * numeric features, sorted by gradient ratio for categorical ones), each leaf at least `min_samples_leaf` rows, leaf
 * values the shrunken Newton step. The missing-value bin always gets its own step.
 */
function fitStep(
  gSum: Float64Array,
  hSum: Float64Array,
  count: Float64Array,
  bins: number,
  ordered: boolean,
  params: BoostParams,
  step: Float64Array,
  random: (() => number) | null,
  tree: StepTree,
  smoothed = false,
): void {
  const lr = params.learning_rate;
  const missing = bins - 1;
  step.fill(0, 0, bins);
  if (count[missing] >= params.min_samples_leaf && hSum[missing] >= MIN_LEAF_HESSIAN) step[missing] = (lr * gSum[missing]) / Math.max(hSum[missing], MIN_HESSIAN * count[missing]);
  const { idx, pg, ph, pc, starts, ends } = tree;
  let m = 0;
  for (let b = 0; b < missing; b++) if (count[b] > 0) idx[m++] = b;
  if (m === 0) return;
  if (!ordered) {
    const sorted = Array.from(idx.subarray(0, m));
    if (smoothed) sortSmoothed(sorted, gSum, hSum, count);
    else sorted.sort((a, b) => gSum[a] / hSum[a] - gSum[b] / hSum[b]);
    idx.set(sorted);
  }
  for (let i = 0; i < m; i++) {
    pg[i + 1] = pg[i] + gSum[idx[i]];
    ph[i + 1] = ph[i] + hSum[idx[i]];
    pc[i + 1] = pc[i] + count[idx[i]];
  }
  // Segments [starts[i], ends[i]) of idx; grow best-first.
  starts[0] = 0;
  ends[0] = m;
  let segments = 1;
  while (segments < params.max_leaves) {
    let bestSeg = -1;
    let bestAt = -1;
    let bestGain = 0;
    for (let i = 0; i < segments; i++) {
      tree.split(starts[i], ends[i], params.min_samples_leaf, random);
      if (tree.gain > bestGain) {
        bestGain = tree.gain;
        bestAt = tree.at;
        bestSeg = i;
      }
    }
    if (bestSeg < 0) break;
    starts.copyWithin(bestSeg + 1, bestSeg, segments);
    ends.copyWithin(bestSeg + 1, bestSeg, segments);
    ends[bestSeg] = bestAt;
    starts[bestSeg + 1] = bestAt;
    segments++;
  }
  for (let i = 0; i < segments; i++) {
    const s = starts[i];
    const e = ends[i];
    const H = Math.max(ph[e] - ph[s], MIN_HESSIAN * (pc[e] - pc[s]));
    const v = ph[e] - ph[s] >= MIN_LEAF_HESSIAN ? (lr * (pg[e] - pg[s])) / H : 0;
    for (let c = s; c < e; c++) step[idx[c]] = v;
  }
}

/**
 * What fitStep grows a tree in, kept from step to step: a feature's non-empty value bins in split order, their prefix
 * sums, the segments (leaves) so far and the best split of the last segment tried.
 */
class StepTree {
  readonly idx: Int32Array;
  readonly pg: Float64Array;
  readonly ph: Float64Array;
  readonly pc: Float64Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Where the best split of the last segment tried cuts it (−1: nowhere), and its gain. */
  at = -1;
  gain = 0;

  constructor(maxBins: number, maxLeaves: number) {
    this.idx = new Int32Array(maxBins);
    this.pg = new Float64Array(maxBins + 1);
    this.ph = new Float64Array(maxBins + 1);
    this.pc = new Float64Array(maxBins + 1);
    this.starts = new Int32Array(maxLeaves + 1);
    this.ends = new Int32Array(maxLeaves + 1);
  }

  /**
   * The best split of segment [s, e): the one of most gain with at least `minLeaf` rows on each side, or with
   * `random`, one of the allowed ones drawn at random (its gain then the segment's rows, so larger segments split first).
   */
  split(s: number, e: number, minLeaf: number, random: (() => number) | null): void {
    const { pg, ph, pc } = this;
    const G = pg[e] - pg[s];
    const H = ph[e] - ph[s];
    const C = pc[e] - pc[s];
    this.at = -1;
    this.gain = 0;
    if (C < 2 * minLeaf) return;
    if (random) {
      let allowed = 0;
      for (let c = s + 1; c < e; c++) if (this.allowed(s, c, C, minLeaf)) allowed++;
      if (allowed === 0) return;
      let pick = Math.floor(random() * allowed);
      for (let c = s + 1; c < e; c++) {
        if (this.allowed(s, c, C, minLeaf) && pick-- === 0) {
          this.at = c;
          this.gain = C;
          return;
        }
      }
    }
    const parent = (G * G) / Math.max(H, MIN_HESSIAN * C);
    for (let c = s + 1; c < e; c++) {
      const cl = pc[c] - pc[s];
      if (cl < minLeaf) continue;
      if (C - cl < minLeaf) break;
      if (ph[c] - ph[s] < MIN_LEAF_HESSIAN || H - (ph[c] - ph[s]) < MIN_LEAF_HESSIAN) continue;
      const gl = pg[c] - pg[s];
      const hl = Math.max(ph[c] - ph[s], MIN_HESSIAN * cl);
      const hr = Math.max(H - hl, MIN_HESSIAN * (C - cl));
      const gain = (gl * gl) / hl + ((G - gl) * (G - gl)) / hr - parent;
      if (gain > this.gain) {
        this.gain = gain;
        this.at = c;
      }
    }
  }

  private allowed(s: number, c: number, rows: number, minLeaf: number): boolean {
    const cl = this.pc[c] - this.pc[s];
    return cl >= minLeaf && rows - cl >= minLeaf;
  }
}

/** Sorts categories by gradient ratio, each drawn towards the ratio of all of them by CATEGORY_SMOOTHING_ROWS rows. */
function sortSmoothed(idx: number[], gSum: Float64Array, hSum: Float64Array, count: Float64Array): void {
  let g = 0;
  let h = 0;
  let c = 0;
  for (const b of idx) {
    g += gSum[b];
    h += hSum[b];
    c += count[b];
  }
  const priorG = (CATEGORY_SMOOTHING_ROWS * g) / c;
  const priorH = (CATEGORY_SMOOTHING_ROWS * h) / c;
  const key = new Float64Array(gSum.length);
  for (const b of idx) key[b] = (gSum[b] + priorG) / (hSum[b] + priorH);
  idx.sort((a, b) => key[a] - key[b]);
}

export function innerSplit(rows: Int32Array, validationSize: number, seed: number, by?: InnerSplitBy | null): { train: Int32Array; valid: Int32Array } {
  const nValid = rows.length >= 20 ? Math.max(1, Math.round(rows.length * validationSize)) : 0;
  const keyed = by && nValid > 0 ? innerSplitBy(by, rows, nValid, seed) : null;
  if (keyed) return keyed;
  const shuffled = rows.slice();
  const random = mulberry32(seed);
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = shuffled[i];
    shuffled[i] = shuffled[j];
    shuffled[j] = t;
  }
  return { valid: shuffled.subarray(0, nValid).slice().sort(), train: shuffled.subarray(nValid).slice().sort() };
}

function concat(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
