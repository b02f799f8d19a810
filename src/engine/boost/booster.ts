import type { BoostParams } from '../boostParams';
import { mulberry32 } from '../prng';

/** A hessian floor that keeps Newton steps finite where probabilities saturate. */
const MIN_HESSIAN = 1e-6;
/** A validation loss must improve by this fraction to count as progress. */
const MIN_IMPROVEMENT = 1e-7;
/** Rounds run when the data is too small to hold out validation rows. */
const UNVALIDATED_ROUNDS = 100;

/** What one bag needs: binned features (last bin = missing) and the target, all for the same rows. */
export interface BoostData {
  classifier: boolean;
  y: Float64Array;
  codes: Uint16Array[];
  nBins: number[];
  /** Numeric features' value bins are ordered; categorical ones are re-ordered by gradient each step. */
  ordered: boolean[];
}

export interface BagResult {
  intercept: number;
  /** Per feature, one additive step per bin, at the round with the best validation loss. */
  tables: Float64Array[];
  rounds: number;
}

/**
 * Cyclic gradient boosting of one bag: each round visits every feature in turn and adds, with shrinkage, a small
 * tree over that feature's bins fitted (Newton steps) to what the current model leaves unexplained. Rows are
 * split into an inner training part and a validation part that decides when to stop.
 * Classifier scores are log-odds (logistic loss); regressor scores are on the target's scale (squared loss).
 */
export function boostBag(data: BoostData, params: BoostParams, seed: number, rows?: Int32Array): BagResult {
  const { train, valid } = innerSplit(rows ?? Int32Array.from({ length: data.y.length }, (_, i) => i), params.validation_size, seed);
  const nT = train.length;
  const order = concat(train, valid);
  const n = order.length;
  const y = Float64Array.from(order, (r) => data.y[r]);
  const codes = data.codes.map((c) => Uint16Array.from(order, (r) => c[r]));
  const k = codes.length;

  let intercept = 0;
  for (let i = 0; i < nT; i++) intercept += y[i];
  intercept /= Math.max(1, nT);
  if (data.classifier) {
    const p = Math.min(1 - 1e-9, Math.max(1e-9, intercept));
    intercept = Math.log(p / (1 - p));
  }
  // Classifier rows keep e^score, updated by multiplication, so no exponential is taken per row and step;
  // regressor rows keep the score itself.
  const state = new Float64Array(n).fill(data.classifier ? Math.exp(intercept) : intercept);

  const tables = data.nBins.map((b) => new Float64Array(b));
  const counts = data.nBins.map((b, j) => {
    const c = new Float64Array(b);
    const cj = codes[j];
    for (let i = 0; i < nT; i++) c[cj[i]]++;
    return c;
  });
  const maxBins = Math.max(2, ...data.nBins);
  const gSum = new Float64Array(maxBins);
  const hSum = new Float64Array(maxBins);
  const step = new Float64Array(maxBins);
  const factor = new Float64Array(maxBins);
  const noValidation = n === nT;

  let best = noValidation ? 0 : validationLoss(data.classifier, y, state, nT);
  let bestRound = 0;
  let bestTables = tables.map((t) => t.slice());
  gradientHistogram(data.classifier, y, state, codes[0], nT, gSum, hSum, data.nBins[0], counts[0]);
  const rounds = noValidation ? Math.min(params.max_rounds, UNVALIDATED_ROUNDS) : params.max_rounds;
  for (let round = 1; round <= rounds; round++) {
    for (let j = 0; j < k; j++) {
      const bins = data.nBins[j];
      const cj = codes[j];
      fitStep(gSum, hSum, counts[j], bins, data.ordered[j], params, step);
      const t = tables[j];
      for (let b = 0; b < bins; b++) t[b] += step[b];
      const next = j + 1 < k ? j + 1 : 0;
      const cn = codes[next];
      const nextBins = data.nBins[next];
      gSum.fill(0, 0, nextBins);
      if (data.classifier) {
        hSum.fill(0, 0, nextBins);
        for (let b = 0; b < bins; b++) factor[b] = Math.exp(step[b]);
        updateLogistic(state, factor, cj, cn, y, gSum, hSum, nT);
        scaleRows(state, factor, cj, nT, n);
      } else {
        hSum.set(counts[next].subarray(0, nextBins));
        updateSquared(state, step, cj, cn, y, gSum, nT);
        shiftRows(state, step, cj, nT, n);
      }
    }
    if (noValidation) {
      bestRound = round;
      continue;
    }
    const loss = validationLoss(data.classifier, y, state, nT);
    if (loss < best - Math.abs(best) * MIN_IMPROVEMENT) {
      best = loss;
      bestRound = round;
      bestTables = tables.map((t) => t.slice());
    } else if (round - bestRound >= params.early_stopping_rounds) break;
  }
  return { intercept, tables: noValidation ? tables : bestTables, rounds: bestRound };
}

// The per-row loops live in small functions of their own, which the JIT compiles to tight machine code.

/** Applies a step (as factors of e^score) to the inner training rows and sums the next feature's gradients. */
function updateLogistic(
  state: Float64Array,
  factor: Float64Array,
  cj: Uint16Array,
  cn: Uint16Array,
  y: Float64Array,
  gSum: Float64Array,
  hSum: Float64Array,
  nT: number,
): void {
  for (let i = 0; i < nT; i++) {
    const e = (state[i] *= factor[cj[i]]);
    const p = e < 1e300 ? e / (1 + e) : 1;
    const b = cn[i];
    gSum[b] += y[i] - p;
    hSum[b] += p * (1 - p);
  }
}

/** Applies a step to the inner training rows' scores and sums the next feature's residuals. */
function updateSquared(state: Float64Array, step: Float64Array, cj: Uint16Array, cn: Uint16Array, y: Float64Array, gSum: Float64Array, nT: number): void {
  for (let i = 0; i < nT; i++) {
    const f = (state[i] += step[cj[i]]);
    gSum[cn[i]] += y[i] - f;
  }
}

function scaleRows(state: Float64Array, factor: Float64Array, cj: Uint16Array, from: number, to: number): void {
  for (let i = from; i < to; i++) state[i] *= factor[cj[i]];
}

function shiftRows(state: Float64Array, step: Float64Array, cj: Uint16Array, from: number, to: number): void {
  for (let i = from; i < to; i++) state[i] += step[cj[i]];
}

/** Gradient and hessian sums per bin of one feature over the inner training rows. */
function gradientHistogram(
  classifier: boolean,
  y: Float64Array,
  state: Float64Array,
  codes: Uint16Array,
  nT: number,
  gSum: Float64Array,
  hSum: Float64Array,
  bins: number,
  counts: Float64Array,
): void {
  gSum.fill(0, 0, bins);
  if (!classifier) {
    hSum.set(counts.subarray(0, bins));
    for (let i = 0; i < nT; i++) gSum[codes[i]] += y[i] - state[i];
    return;
  }
  hSum.fill(0, 0, bins);
  for (let i = 0; i < nT; i++) {
    const p = state[i] / (1 + state[i]);
    gSum[codes[i]] += y[i] - p;
    hSum[codes[i]] += p * (1 - p);
  }
}

function validationLoss(classifier: boolean, y: Float64Array, state: Float64Array, nT: number): number {
  const n = y.length;
  let loss = 0;
  for (let i = nT; i < n; i++) {
    if (classifier) {
      // −log p(y) with p = e/(1+e): log(1 + e) − y·log(e).
      const e = state[i];
      loss += Math.log1p(e) - (y[i] > 0 ? Math.log(e) : 0);
    } else {
      const d = y[i] - state[i];
      loss += d * d;
    }
  }
  return loss / (n - nT);
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
): void {
  const lr = params.learning_rate;
  const minLeaf = params.min_samples_leaf;
  const missing = bins - 1;
  step.fill(0, 0, bins);
  if (count[missing] >= minLeaf) step[missing] = (lr * gSum[missing]) / Math.max(hSum[missing], MIN_HESSIAN * count[missing]);
  const idx: number[] = [];
  for (let b = 0; b < missing; b++) if (count[b] > 0) idx.push(b);
  if (idx.length === 0) return;
  if (!ordered) idx.sort((a, b) => gSum[a] / hSum[a] - gSum[b] / hSum[b]);
  const m = idx.length;
  const pg = new Float64Array(m + 1);
  const ph = new Float64Array(m + 1);
  const pc = new Float64Array(m + 1);
  for (let i = 0; i < m; i++) {
    pg[i + 1] = pg[i] + gSum[idx[i]];
    ph[i + 1] = ph[i] + hSum[idx[i]];
    pc[i + 1] = pc[i] + count[idx[i]];
  }
  // Segments [start, end) of idx; grow best-first.
  const segments: [number, number][] = [[0, m]];
  const splitOf = (s: number, e: number): { at: number; gain: number } => {
    const G = pg[e] - pg[s];
    const H = ph[e] - ph[s];
    const C = pc[e] - pc[s];
    let bestGain = 0;
    let at = -1;
    if (C < 2 * minLeaf) return { at, gain: 0 };
    const parent = (G * G) / Math.max(H, MIN_HESSIAN * C);
    for (let c = s + 1; c < e; c++) {
      const cl = pc[c] - pc[s];
      if (cl < minLeaf) continue;
      if (C - cl < minLeaf) break;
      const gl = pg[c] - pg[s];
      const hl = Math.max(ph[c] - ph[s], MIN_HESSIAN * cl);
      const hr = Math.max(H - hl, MIN_HESSIAN * (C - cl));
      const gain = (gl * gl) / hl + ((G - gl) * (G - gl)) / hr - parent;
      if (gain > bestGain) {
        bestGain = gain;
        at = c;
      }
    }
    return { at, gain: bestGain };
  };
  while (segments.length < params.max_leaves) {
    let bestSeg = -1;
    let best = { at: -1, gain: 0 };
    segments.forEach(([s, e], i) => {
      const candidate = splitOf(s, e);
      if (candidate.gain > best.gain) {
        best = candidate;
        bestSeg = i;
      }
    });
    if (bestSeg < 0) break;
    const [s, e] = segments[bestSeg];
    segments.splice(bestSeg, 1, [s, best.at], [best.at, e]);
  }
  for (const [s, e] of segments) {
    const H = Math.max(ph[e] - ph[s], MIN_HESSIAN * (pc[e] - pc[s]));
    const v = H > 0 ? (lr * (pg[e] - pg[s])) / H : 0;
    for (let c = s; c < e; c++) step[idx[c]] = v;
  }
}

function innerSplit(rows: Int32Array, validationSize: number, seed: number): { train: Int32Array; valid: Int32Array } {
  const shuffled = rows.slice();
  const random = mulberry32(seed);
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = shuffled[i];
    shuffled[i] = shuffled[j];
    shuffled[j] = t;
  }
  const nValid = shuffled.length >= 20 ? Math.max(1, Math.round(shuffled.length * validationSize)) : 0;
  return { valid: shuffled.subarray(0, nValid).slice().sort(), train: shuffled.subarray(nValid).slice().sort() };
}

function concat(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
