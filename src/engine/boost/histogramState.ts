import type { GradientState } from './rowState';

/** Below this many rows, passing over the rows costs less than keeping pairwise histograms. */
const MIN_ROWS = 10_000;
/** Most numbers the pairwise histograms of one bag may hold (train and validation together, 8 bytes each). */
const MAX_CELLS = 6_000_000;

/** Whether squared-loss boosting of these features over n rows should run on pairwise histograms. */
export function useHistograms(nBins: number[], n: number): boolean {
  if (n < MIN_ROWS) return false;
  let cells = 0;
  for (let k = 0; k < nBins.length; k++) for (let j = 0; j < nBins.length; j++) if (j !== k) cells += nBins[k] * (nBins[j] + 1);
  return 2 * cells <= MAX_CELLS;
}

/**
 * Squared loss without passing over the rows while boosting. A step adds s[b] to the score of every row in bin b
 * of feature j, so each other feature k's residual sum in its bin a falls by Σ_b N_kj[a][b]·s[b], where N_kj counts
 * the rows in bin a of k and bin b of j; the validation error changes by Σ_b (s[b]²·n_j[b] − 2·s[b]·r_j[b]). The
 * counts are gathered once per bag, with prefix sums over j's bins, so a step whose values come in a few runs (a
 * small tree) costs a few operations per bin of each feature whatever the number of rows. Exact, as on the rows.
 */
export class SquaredHistograms implements GradientState {
  /**
   * prefix[k][j][c·B_k + a]: rows in bin a of k and bins < c of j (train); `validPrefix` for validation rows. Laid
   * out by j's boundary first, so a step reads a few contiguous vectors of each other feature.
   */
  private readonly prefix: Float64Array[][];
  private readonly validPrefix: Float64Array[][];
  private readonly residual: Float64Array[];
  private readonly validResidual: Float64Array[];
  private readonly validCounts: Float64Array[];
  private sse = 0;
  private readonly nValid: number;

  constructor(
    y: Float64Array,
    codes: Uint16Array[],
    private readonly nBins: number[],
    nT: number,
    start: Float64Array,
    private readonly counts: Float64Array[],
  ) {
    const n = y.length;
    const k = codes.length;
    this.nValid = n - nT;
    this.prefix = pairPrefixes(codes, nBins, 0, nT);
    this.validPrefix = pairPrefixes(codes, nBins, nT, n);
    this.residual = nBins.map((b) => new Float64Array(b));
    this.validResidual = nBins.map((b) => new Float64Array(b));
    this.validCounts = nBins.map((b) => new Float64Array(b));
    for (let j = 0; j < k; j++) {
      const c = codes[j];
      const r = this.residual[j];
      const vr = this.validResidual[j];
      const vc = this.validCounts[j];
      for (let i = 0; i < nT; i++) r[c[i]] += y[i] - start[i];
      for (let i = nT; i < n; i++) {
        vr[c[i]] += y[i] - start[i];
        vc[c[i]]++;
      }
    }
    for (let i = nT; i < n; i++) this.sse += (y[i] - start[i]) * (y[i] - start[i]);
  }

  histogram(j: number, gSum: Float64Array, hSum: Float64Array): void {
    gSum.fill(0);
    hSum.fill(0);
    gSum.set(this.residual[j]);
    hSum.set(this.counts[j]);
  }

  apply(j: number, step: Float64Array, next: number, gSum: Float64Array, hSum: Float64Array): void {
    const bins = this.nBins[j];
    const runs = stepRuns(step, bins);
    const vr = this.validResidual[j];
    const vc = this.validCounts[j];
    for (let b = 0; b < bins; b++) this.sse += step[b] * (step[b] * vc[b] - 2 * vr[b]);
    for (let k = 0; k < this.nBins.length; k++) {
      if (k === j) continue;
      lowerResiduals(this.residual[k], this.prefix[k][j], runs);
      lowerResiduals(this.validResidual[k], this.validPrefix[k][j], runs);
    }
    const r = this.residual[j];
    const c = this.counts[j];
    for (let b = 0; b < bins; b++) {
      r[b] -= c[b] * step[b];
      vr[b] -= vc[b] * step[b];
    }
    this.histogram(next, gSum, hSum);
  }

  validationLoss(): number {
    return Math.max(0, this.sse) / this.nValid;
  }
}

/** Runs of equal non-zero values in step[0..bins): [start, end, value] triples. */
function stepRuns(step: Float64Array, bins: number): number[] {
  const runs: number[] = [];
  let start = 0;
  for (let b = 1; b <= bins; b++) {
    if (b < bins && step[b] === step[start]) continue;
    if (step[start] !== 0) runs.push(start, b, step[start]);
    start = b;
  }
  return runs;
}

function lowerResiduals(residual: Float64Array, prefix: Float64Array, runs: number[]): void {
  const width = residual.length;
  for (let r = 0; r < runs.length; r += 3) {
    const start = runs[r] * width;
    const end = runs[r + 1] * width;
    const v = runs[r + 2];
    for (let a = 0; a < width; a++) residual[a] -= v * (prefix[end + a] - prefix[start + a]);
  }
}

/** For every ordered pair of features, the co-occurrence counts of their bins over rows [from, to), as prefix sums. */
function pairPrefixes(codes: Uint16Array[], nBins: number[], from: number, to: number): Float64Array[][] {
  const k = codes.length;
  const out: Float64Array[][] = Array.from({ length: k }, () => new Array<Float64Array>(k));
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      const wa = nBins[a];
      const wb = nBins[b];
      const counts = new Float64Array(wa * wb);
      const ca = codes[a];
      const cb = codes[b];
      for (let i = from; i < to; i++) counts[ca[i] * wb + cb[i]]++;
      out[a][b] = boundaryPrefix(counts, wa, wb, false);
      out[b][a] = boundaryPrefix(counts, wa, wb, true);
    }
  }
  return out;
}

/**
 * For a wa × wb count table (or its transpose), P[c·rows + r] = Σ over columns < c of row r: the prefix sums along
 * the second feature's bins, stored boundary by boundary.
 */
function boundaryPrefix(counts: Float64Array, wa: number, wb: number, transpose: boolean): Float64Array {
  const rows = transpose ? wb : wa;
  const cols = transpose ? wa : wb;
  const out = new Float64Array((cols + 1) * rows);
  for (let c = 0; c < cols; c++) {
    const from = c * rows;
    const to = from + rows;
    for (let r = 0; r < rows; r++) out[to + r] = out[from + r] + (transpose ? counts[c * wb + r] : counts[r * wb + c]);
  }
  return out;
}
