import type { FeatureModel } from '../model/types';

const RIDGE_ALPHA = 1;
const TOLERANCE = 1e-12;
const MAX_ITERATIONS = 2000;
/** Up to this many design columns the system is factorised directly; above it conjugate gradients are cheaper. */
const DIRECT_SOLVE_LIMIT = 1200;

export interface RidgeFit {
  /** Per feature, one coefficient per leaf (0 for leaves whose design column is all zeros). */
  coef: Float64Array[];
  intercept: number;
}

/**
 * §2.9 Ridge (α = 1, centred intercept) on the design matrix whose column (feature, leaf) holds the leaf's raw score
 * where the row falls in that leaf. Every row has exactly one active column per feature, so XᵀX is built from leaf
 * co-occurrence counts (§13 step 7) and each feature's own block is diagonal minus a rank-one centring term. Small
 * systems are solved by Cholesky factorisation, large ones by conjugate gradients preconditioned with the exact
 * inverse of those blocks (Sherman–Morrison).
 */
export function fitRidge(features: FeatureModel[], leafIdx: Int32Array[], y: Float64Array): RidgeFit {
  const n = y.length;
  let yMean = 0;
  for (let i = 0; i < n; i++) yMean += y[i];
  yMean /= n;

  // Columns: leaves with a non-zero raw score that some row falls in.
  const colOf: Int32Array[] = [];
  const rawOf: number[] = [];
  const cntOf: number[] = [];
  const sumYOf: number[] = [];
  const blockStart: number[] = [];
  features.forEach((f, fi) => {
    const L = f.leaves.raw.length;
    const cnt = new Float64Array(L);
    const sy = new Float64Array(L);
    const idx = leafIdx[fi];
    for (let r = 0; r < n; r++) {
      cnt[idx[r]]++;
      sy[idx[r]] += y[r];
    }
    const map = new Int32Array(L).fill(-1);
    blockStart.push(rawOf.length);
    for (let l = 0; l < L; l++) {
      if (f.leaves.raw[l] === 0 || cnt[l] === 0) continue;
      map[l] = rawOf.length;
      rawOf.push(f.leaves.raw[l]);
      cntOf.push(cnt[l]);
      sumYOf.push(sy[l]);
    }
    colOf.push(map);
  });
  blockStart.push(rawOf.length);
  const p = rawOf.length;
  const coef = features.map((f) => new Float64Array(f.leaves.raw.length));
  if (p === 0) return { coef, intercept: yMean };

  const m = Float64Array.from(rawOf, (raw, j) => (raw * cntOf[j]) / n);
  const G = new Float64Array(p * p);
  for (let j = 0; j < p; j++) G[j * p + j] = rawOf[j] * rawOf[j] * cntOf[j];
  for (let f = 0; f < features.length; f++) {
    for (let g = f + 1; g < features.length; g++) {
      addCooccurrence(G, p, colOf[f], colOf[g], leafIdx[f], leafIdx[g], rawOf);
    }
  }
  for (let a = 0; a < p; a++) {
    for (let b = 0; b < p; b++) G[a * p + b] -= n * m[a] * m[b];
    G[a * p + a] += RIDGE_ALPHA;
  }
  const rhs = Float64Array.from(rawOf, (raw, j) => raw * (sumYOf[j] - cntOf[j] * yMean));
  const blocks = blockStart.slice(0, -1).map((start, i) => ({ start, end: blockStart[i + 1] }));
  const d = Float64Array.from(rawOf, (raw, j) => raw * raw * cntOf[j] + RIDGE_ALPHA);
  const precondition = (r: Float64Array, z: Float64Array): void => {
    for (const { start, end } of blocks) {
      let mr = 0;
      let mm = 0;
      for (let j = start; j < end; j++) {
        mr += (m[j] * r[j]) / d[j];
        mm += (m[j] * m[j]) / d[j];
      }
      const k = (n * mr) / (1 - n * mm);
      for (let j = start; j < end; j++) z[j] = (r[j] + m[j] * k) / d[j];
    }
  };
  const beta = p <= DIRECT_SOLVE_LIMIT ? choleskySolve(G, p, rhs) : conjugateGradient(G, p, rhs, precondition);
  let intercept = yMean;
  for (let j = 0; j < p; j++) intercept -= m[j] * beta[j];
  features.forEach((_, fi) => {
    const map = colOf[fi];
    for (let l = 0; l < map.length; l++) if (map[l] >= 0) coef[fi][l] = beta[map[l]];
  });
  return { coef, intercept };
}

function addCooccurrence(
  G: Float64Array,
  p: number,
  colA: Int32Array,
  colB: Int32Array,
  idxA: Int32Array,
  idxB: Int32Array,
  raw: number[],
): void {
  const LB = colB.length;
  const table = new Float64Array(colA.length * LB);
  for (let r = 0; r < idxA.length; r++) table[idxA[r] * LB + idxB[r]]++;
  for (let la = 0; la < colA.length; la++) {
    const a = colA[la];
    if (a < 0) continue;
    for (let lb = 0; lb < LB; lb++) {
      const b = colB[lb];
      const c = table[la * LB + lb];
      if (b < 0 || c === 0) continue;
      const v = raw[a] * raw[b] * c;
      G[a * p + b] += v;
      G[b * p + a] += v;
    }
  }
}

/** Solves A x = b for symmetric positive-definite A (row-major p × p); A is overwritten by its factor. */
function choleskySolve(A: Float64Array, p: number, b: Float64Array): Float64Array {
  for (let i = 0; i < p; i++) {
    const ri = i * p;
    for (let j = 0; j <= i; j++) {
      const rj = j * p;
      let s = A[ri + j];
      for (let k = 0; k < j; k++) s -= A[ri + k] * A[rj + k];
      A[ri + j] = i === j ? Math.sqrt(s) : s / A[rj + j];
    }
  }
  const x = b.slice();
  for (let i = 0; i < p; i++) {
    let s = x[i];
    for (let k = 0; k < i; k++) s -= A[i * p + k] * x[k];
    x[i] = s / A[i * p + i];
  }
  for (let i = p - 1; i >= 0; i--) {
    let s = x[i];
    for (let k = i + 1; k < p; k++) s -= A[k * p + i] * x[k];
    x[i] = s / A[i * p + i];
  }
  return x;
}

function conjugateGradient(
  A: Float64Array,
  p: number,
  b: Float64Array,
  precondition: (r: Float64Array, z: Float64Array) => void,
): Float64Array {
  const x = new Float64Array(p);
  const r = b.slice();
  const z = new Float64Array(p);
  const Ap = new Float64Array(p);
  precondition(r, z);
  const dir = z.slice();
  let rz = dot(r, z);
  const bNorm = Math.sqrt(dot(b, b));
  if (bNorm === 0) return x;
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    for (let i = 0; i < p; i++) {
      let s = 0;
      const row = i * p;
      for (let j = 0; j < p; j++) s += A[row + j] * dir[j];
      Ap[i] = s;
    }
    const step = rz / dot(dir, Ap);
    for (let i = 0; i < p; i++) {
      x[i] += step * dir[i];
      r[i] -= step * Ap[i];
    }
    if (Math.sqrt(dot(r, r)) <= TOLERANCE * bNorm) break;
    precondition(r, z);
    const rzNext = dot(r, z);
    const beta = rzNext / rz;
    rz = rzNext;
    for (let i = 0; i < p; i++) dir[i] = z[i] + beta * dir[i];
  }
  return x;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
