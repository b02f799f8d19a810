import { EngineError } from '../base/errors';
import type { Column, DataFrame } from '../data/frame';
import { sampleRows } from '../base/prng';

/** One-hot columns per categorical feature, most frequent levels first. */
const MAX_LEVELS = 30;
/** The baseline is a yardstick, so large data is subsampled for it. */
const MAX_ROWS = 50_000;
/** L2 penalty on the standardised coefficients (scikit-learn's defaults: Ridge α = 1, LogisticRegression C = 1). */
const L2 = 1;
const NEWTON_STEPS = 25;

/** How one design column is computed from a frame's column. */
type Encoder =
  | { kind: 'number'; name: string; mean: number; scale: number }
  | { kind: 'missing'; name: string }
  | { kind: 'level'; name: string; level: string };

/**
 * A linear model as additive terms: ridge regression (regressor) or L2-penalised logistic regression (classifier, `y`
 * in {0, 1}) on standardised numbers (missing values imputed with the mean, plus a missing indicator) and one-hot
 * categories (the most frequent levels), `y` aligned with the frame's rows. Its intercept and each feature's
 * contribution to a row's score (log-odds for a classifier).
 */
export interface LinearTerms {
  intercept: number;
  contributions(frame: DataFrame): Map<string, Float64Array>;
}

/**
 * A generalised linear fit: a log link with variance power `power` (Poisson 1, Tweedie 1–2, Gamma 2) by Fisher
 * scoring, or, on the identity, the Huber (`delta`) or pinball (`alpha`) loss by iteratively reweighted least
 * squares. `weights` weigh the rows, `offset` is added to every row's score (log exposure).
 */
export type LinearFamily = ({ link: 'log'; power: number } | { link: 'identity'; delta: number } | { link: 'identity'; alpha: number }) & {
  weights: Float64Array | null;
  offset: Float64Array | null;
};

export function fitLinearTerms(
  frame: DataFrame,
  features: readonly string[],
  y: Float64Array,
  modelType: 'classifier' | 'regressor',
  family: LinearFamily | null = null,
): LinearTerms {
  if (y.length !== frame.nRows) throw new EngineError(`y has ${y.length} values for ${frame.nRows} rows`, 'y');
  const rows = sampleRows(frame.nRows, MAX_ROWS, 7);
  const encoders = features.flatMap((name) => encodersFor(frame.column(name), rows));
  const x = design(frame, encoders, rows);
  const ys = Float64Array.from(rows, (r) => y[r]);
  const w = family ? familyFit(x, ys, encoders.length, family, rows) : modelType === 'regressor' ? ridge(x, ys, encoders.length) : logistic(x, ys, encoders.length);
  return {
    intercept: w[0],
    contributions(target: DataFrame): Map<string, Float64Array> {
      const out = new Map(features.map((name) => [name, new Float64Array(target.nRows)]));
      encoders.forEach((e, j) => {
        const col = target.has(e.name) ? target.column(e.name) : null;
        const c = out.get(e.name) as Float64Array;
        for (let r = 0; r < c.length; r++) c[r] += w[j + 1] * encode(e, col, r);
      });
      return out;
    },
  };
}

function encodersFor(col: Column, rows: Int32Array): Encoder[] {
  if (col.storage === 'number') {
    let sum = 0;
    let sq = 0;
    let count = 0;
    for (const r of rows) {
      const v = col.values[r];
      if (v !== v) continue;
      sum += v;
      sq += v * v;
      count++;
    }
    if (count === 0) return [];
    const mean = sum / count;
    const sd = Math.sqrt(Math.max(0, sq / count - mean * mean));
    const out: Encoder[] = [{ kind: 'number', name: col.name, mean, scale: sd > 0 ? sd : 1 }];
    if (count < rows.length) out.push({ kind: 'missing', name: col.name });
    return out;
  }
  const counts = new Float64Array(col.levels.length);
  let missing = 0;
  for (const r of rows) {
    const c = col.codes[r];
    if (c < 0) missing++;
    else counts[c]++;
  }
  const levels = [...counts.keys()].filter((c) => counts[c] > 0).sort((a, b) => counts[b] - counts[a]);
  const out: Encoder[] = levels.slice(0, MAX_LEVELS).map((c) => ({ kind: 'level', name: col.name, level: col.levels[c] }));
  if (missing > 0) out.push({ kind: 'missing', name: col.name });
  return out;
}

/** Row-major design matrix with a leading column of ones. */
function design(frame: DataFrame, encoders: Encoder[], rows: Int32Array): Float64Array {
  const p = encoders.length + 1;
  const x = new Float64Array(rows.length * p);
  for (let i = 0; i < rows.length; i++) x[i * p] = 1;
  encoders.forEach((e, j) => {
    const col = frame.has(e.name) ? frame.column(e.name) : null;
    for (let i = 0; i < rows.length; i++) x[i * p + j + 1] = encode(e, col, rows[i]);
  });
  return x;
}

function encode(e: Encoder, col: Column | null, r: number): number {
  if (!col) return e.kind === 'missing' ? 1 : 0;
  if (col.storage === 'number') {
    const v = col.values[r];
    if (e.kind === 'missing') return v !== v ? 1 : 0;
    if (e.kind === 'number') return v !== v ? 0 : (v - e.mean) / e.scale;
    return 0;
  }
  const c = col.codes[r];
  if (e.kind === 'missing') return c < 0 ? 1 : 0;
  return e.kind === 'level' && c >= 0 && col.levels[c] === e.level ? 1 : 0;
}

function ridge(x: Float64Array, y: Float64Array, k: number): Float64Array {
  const p = k + 1;
  const a = new Float64Array(p * p);
  const b = new Float64Array(p);
  accumulate(x, y.length, p, () => 1, a);
  for (let i = 0; i < y.length; i++) for (let j = 0; j < p; j++) b[j] += x[i * p + j] * y[i];
  for (let j = 1; j < p; j++) a[j * p + j] += L2;
  return solve(a, b, p);
}

/** Newton–Raphson on the penalised log-likelihood (the intercept is not penalised). */
function logistic(x: Float64Array, y: Float64Array, k: number): Float64Array {
  const p = k + 1;
  const n = y.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += y[i];
  mean = Math.min(1 - 1e-6, Math.max(1e-6, mean / n));
  let w = new Float64Array(p);
  w[0] = Math.log(mean / (1 - mean));
  const prob = new Float64Array(n);
  for (let step = 0; step < NEWTON_STEPS; step++) {
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < p; j++) s += w[j] * x[i * p + j];
      prob[i] = sigmoid(s);
    }
    const h = new Float64Array(p * p);
    const g = new Float64Array(p);
    accumulate(x, n, p, (i) => Math.max(prob[i] * (1 - prob[i]), 1e-10), h);
    for (let i = 0; i < n; i++) {
      const d = y[i] - prob[i];
      for (let j = 0; j < p; j++) g[j] += x[i * p + j] * d;
    }
    const { next, change } = penalisedStep(h, g, w, Infinity);
    w = next;
    if (change < 1e-8) break;
  }
  return w;
}

const FAMILY_STEPS = 50;

/** Newton (Fisher scoring) or reweighted least-squares steps of a LinearFamily on the sampled rows. */
function familyFit(x: Float64Array, y: Float64Array, k: number, family: LinearFamily, rows: Int32Array): Float64Array {
  const p = k + 1;
  const n = y.length;
  const sw = Float64Array.from(rows, (r) => (family.weights ? family.weights[r] : 1));
  const offset = Float64Array.from(rows, (r) => (family.offset ? family.offset[r] : 0));
  let sum = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    sum += sw[i] * y[i];
    total += sw[i] * (family.link === 'log' ? Math.exp(offset[i]) : 1);
  }
  let w = new Float64Array(p);
  w[0] = family.link === 'log' ? Math.log(Math.max(sum / total, 1e-12)) : sum / total;
  const score = (i: number) => {
    let s = offset[i];
    for (let j = 0; j < p; j++) s += w[j] * x[i * p + j];
    return s;
  };
  for (let step = 0; step < FAMILY_STEPS; step++) {
    const h = new Float64Array(p * p);
    const g = new Float64Array(p);
    const hess = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const s = score(i);
      let gi: number;
      if (family.link === 'log') {
        const mu = Math.exp(Math.min(s, 700));
        const a = Math.pow(mu, 1 - family.power);
        gi = sw[i] * (y[i] * a - mu * a);
        hess[i] = sw[i] * mu * a;
      } else {
        // Reweighted least squares: the row's weight makes its squared residual stand for its Huber or pinball loss.
        const r = y[i] - s;
        const abs = Math.max(Math.abs(r), 1e-8);
        const rw = 'delta' in family ? (abs <= family.delta ? 1 : family.delta / abs) : (r > 0 ? family.alpha : 1 - family.alpha) / abs;
        hess[i] = sw[i] * rw;
        gi = hess[i] * r;
      }
      for (let j = 0; j < p; j++) g[j] += x[i * p + j] * gi;
    }
    accumulate(x, n, p, (i) => Math.max(hess[i], 1e-10), h);
    // A log link's Newton step can overshoot far from the optimum: no coefficient moves by more than 1 a step.
    const { next, change } = penalisedStep(h, g, w, family.link === 'log' ? 1 : Infinity);
    w = next;
    if (change < 1e-8) break;
  }
  return w;
}

/**
 * One Newton step from the coefficients w with the L2 penalty (the intercept not penalised) added to the hessian h and
 * gradient g in place; each coefficient moves by at most `limit`. Returns the new coefficients and the largest move.
 */
function penalisedStep(h: Float64Array, g: Float64Array, w: Float64Array, limit: number): { next: Float64Array<ArrayBuffer>; change: number } {
  const p = w.length;
  for (let j = 1; j < p; j++) {
    h[j * p + j] += L2;
    g[j] -= L2 * w[j];
  }
  const delta = solve(h, g, p);
  let change = 0;
  const next = new Float64Array(p);
  for (let j = 0; j < p; j++) {
    const d = Math.max(-limit, Math.min(limit, delta[j]));
    next[j] = w[j] + d;
    change = Math.max(change, Math.abs(d));
  }
  return { next, change };
}

/** a += Σᵢ weight(i) · xᵢ xᵢᵀ (upper triangle, then mirrored). */
function accumulate(x: Float64Array, n: number, p: number, weight: (i: number) => number, a: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const wi = weight(i);
    const off = i * p;
    for (let j = 0; j < p; j++) {
      const xj = x[off + j] * wi;
      if (xj === 0) continue;
      for (let l = j; l < p; l++) a[j * p + l] += xj * x[off + l];
    }
  }
  for (let j = 0; j < p; j++) for (let l = 0; l < j; l++) a[j * p + l] = a[l * p + j];
}

/** Solves a·w = b for a symmetric positive (semi-)definite a by Cholesky, with a tiny ridge for singular systems. */
function solve(a: Float64Array, b: Float64Array, p: number): Float64Array {
  const l = new Float64Array(p * p);
  for (let j = 0; j < p; j++) {
    let d = a[j * p + j] + 1e-9;
    for (let k = 0; k < j; k++) d -= l[j * p + k] * l[j * p + k];
    const ljj = Math.sqrt(Math.max(d, 1e-12));
    l[j * p + j] = ljj;
    for (let i = j + 1; i < p; i++) {
      let s = a[i * p + j];
      for (let k = 0; k < j; k++) s -= l[i * p + k] * l[j * p + k];
      l[i * p + j] = s / ljj;
    }
  }
  const z = new Float64Array(p);
  for (let i = 0; i < p; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i * p + k] * z[k];
    z[i] = s / l[i * p + i];
  }
  const w = new Float64Array(p);
  for (let i = p - 1; i >= 0; i--) {
    let s = z[i];
    for (let k = i + 1; k < p; k++) s -= l[k * p + i] * w[k];
    w[i] = s / l[i * p + i];
  }
  return w;
}

export function sigmoid(s: number): number {
  return 1 / (1 + Math.exp(-s));
}
