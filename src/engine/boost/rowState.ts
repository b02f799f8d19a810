/**
 * The scores of a bag's rows while boosting, from each row's `start` score: rows 0..nT−1 are the inner training rows,
 * the rest validate.
 * `histogram` sums the gradients and hessians of one feature's bins over the training rows; `apply` adds a step
 * (one value per bin) of feature j to every row and returns the next feature's sums in the same pass.
 */
export interface GradientState {
  histogram(j: number, gSum: Float64Array, hSum: Float64Array): void;
  apply(j: number, step: Float64Array, next: number, gSum: Float64Array, hSum: Float64Array): void;
  /** Mean loss on the validation rows. */
  validationLoss(): number;
}

// The per-row loops live in small functions of their own, which the JIT compiles to tight machine code.

/** Logistic loss. Rows keep e^score, updated by multiplication, so no exponential is taken per row and step. */
export class LogisticRows implements GradientState {
  private readonly e: Float64Array;
  private readonly factor: Float64Array;
  /** The next feature's gradient and hessian sums, interleaved per bin: one cache line per row's update. */
  private readonly gh: Float64Array;

  constructor(
    private readonly y: Float64Array,
    private readonly codes: Uint16Array[],
    private readonly nT: number,
    start: Float64Array,
  ) {
    this.e = start.map(Math.exp);
    this.factor = new Float64Array(codes.reduce((m, c) => Math.max(m, maxCode(c) + 1), 2));
    this.gh = new Float64Array(2 * this.factor.length);
  }

  histogram(j: number, gSum: Float64Array, hSum: Float64Array): void {
    const { e, y, nT } = this;
    const codes = this.codes[j];
    gSum.fill(0);
    hSum.fill(0);
    for (let i = 0; i < nT; i++) {
      const p = e[i] / (1 + e[i]);
      gSum[codes[i]] += y[i] - p;
      hSum[codes[i]] += p * (1 - p);
    }
  }

  apply(j: number, step: Float64Array, next: number, gSum: Float64Array, hSum: Float64Array): void {
    const factor = this.factor;
    for (let b = 0; b < factor.length && b < step.length; b++) factor[b] = Math.exp(step[b]);
    gSum.fill(0);
    hSum.fill(0);
    const gh = this.gh;
    gh.fill(0);
    updateLogistic(this.e, factor, this.codes[j], this.codes[next], this.y, gh, this.nT);
    for (let b = 0; b < gSum.length && 2 * b < gh.length; b++) {
      gSum[b] = gh[2 * b];
      hSum[b] = gh[2 * b + 1];
    }
    scaleRows(this.e, factor, this.codes[j], this.nT, this.y.length);
  }

  validationLoss(): number {
    const { e, y, nT } = this;
    let loss = 0;
    // −log p(y) with p = e/(1+e): log(1 + e) − y·log(e).
    for (let i = nT; i < y.length; i++) loss += Math.log1p(e[i]) - (y[i] > 0 ? Math.log(e[i]) : 0);
    return loss / (y.length - nT);
  }
}

/** Squared loss on the rows themselves (small data, or too many features for the pairwise histograms). */
export class SquaredRows implements GradientState {
  private readonly f: Float64Array;

  constructor(
    private readonly y: Float64Array,
    private readonly codes: Uint16Array[],
    private readonly nT: number,
    start: Float64Array,
    private readonly counts: Float64Array[],
  ) {
    this.f = start.slice();
  }

  histogram(j: number, gSum: Float64Array, hSum: Float64Array): void {
    const { f, y, nT } = this;
    const codes = this.codes[j];
    gSum.fill(0);
    hSum.fill(0);
    hSum.set(this.counts[j]);
    for (let i = 0; i < nT; i++) gSum[codes[i]] += y[i] - f[i];
  }

  apply(j: number, step: Float64Array, next: number, gSum: Float64Array, hSum: Float64Array): void {
    gSum.fill(0);
    hSum.fill(0);
    hSum.set(this.counts[next]);
    updateSquared(this.f, step, this.codes[j], this.codes[next], this.y, gSum, this.nT);
    shiftRows(this.f, step, this.codes[j], this.nT, this.y.length);
  }

  validationLoss(): number {
    const { f, y, nT } = this;
    let loss = 0;
    for (let i = nT; i < y.length; i++) loss += (y[i] - f[i]) * (y[i] - f[i]);
    return loss / (y.length - nT);
  }
}

/** The largest bin code of a feature's rows. */
export function maxCode(codes: Uint16Array): number {
  let m = 0;
  for (let i = 0; i < codes.length; i++) if (codes[i] > m) m = codes[i];
  return m;
}

/** Applies a step (as factors of e^score) to the inner training rows and sums the next feature's gradients. */
function updateLogistic(e: Float64Array, factor: Float64Array, cj: Uint16Array, cn: Uint16Array, y: Float64Array, gh: Float64Array, nT: number): void {
  for (let i = 0; i < nT; i++) {
    const v = (e[i] *= factor[cj[i]]);
    const p = v < 1e300 ? v / (1 + v) : 1;
    const b = 2 * cn[i];
    gh[b] += y[i] - p;
    gh[b + 1] += p * (1 - p);
  }
}

/** Applies a step to the inner training rows' scores and sums the next feature's residuals. */
function updateSquared(f: Float64Array, step: Float64Array, cj: Uint16Array, cn: Uint16Array, y: Float64Array, gSum: Float64Array, nT: number): void {
  for (let i = 0; i < nT; i++) {
    const v = (f[i] += step[cj[i]]);
    gSum[cn[i]] += y[i] - v;
  }
}

function scaleRows(e: Float64Array, factor: Float64Array, cj: Uint16Array, from: number, to: number): void {
  for (let i = from; i < to; i++) e[i] *= factor[cj[i]];
}

function shiftRows(f: Float64Array, step: Float64Array, cj: Uint16Array, from: number, to: number): void {
  for (let i = from; i < to; i++) f[i] += step[cj[i]];
}
