import { linkOf, type ResolvedObjective } from '../params/objective';
import { meanLoss, weightedQuantile } from '../model/objectiveLoss';
import { maxCode, type GradientState } from './rowState';

/**
 * Any objective, weighted, on the rows (rows 0..nT−1 train, the rest validate). Each row keeps its score through
 * the link's inverse: the mean for a log link (a step multiplies it by e^step, so no exponential is taken per row),
 * the odds for a logit, the score itself for the identity. Scores start at `start` (the base value plus the row's
 * offset, log exposure). Gradients are negative, as the booster's Newton step G/H expects; each row's gradient and
 * hessian are multiplied by its weight.
 */
export class ObjectiveRows implements GradientState {
  /** Per row: the mean (log link), the odds (logit) or the score (identity). */
  private readonly m: Float64Array;
  private readonly factor: Float64Array;
  /** Tweedie only: m^(1−p) per row and e^((1−p)·step) per bin, so no power is taken per row either. */
  private readonly q: Float64Array | null;
  private readonly qFactor: Float64Array;
  private readonly log: boolean;
  private readonly identity: boolean;
  /** Quantile only: the gradient's scale, so that a step moves by the target's spread rather than by 1. */
  private readonly scale: number;

  constructor(
    private readonly o: ResolvedObjective,
    private readonly y: Float64Array,
    private readonly w: Float64Array | null,
    private readonly codes: Uint16Array[],
    private readonly nT: number,
    start: Float64Array,
  ) {
    const link = linkOf(o.name);
    this.log = link === 'log';
    this.identity = link === 'identity';
    this.m = this.identity ? start.slice() : start.map(Math.exp);
    this.factor = new Float64Array(codes.reduce((mx, c) => Math.max(mx, maxCode(c) + 1), 2));
    this.q = o.name === 'tweedie' ? this.m.map((v) => Math.pow(v, 1 - o.tweediePower)) : null;
    this.qFactor = new Float64Array(this.factor.length);
    this.scale = o.name === 'quantile' ? quantileScale(y, w, start, nT) : 1;
  }

  histogram(j: number, gSum: Float64Array, hSum: Float64Array): void {
    gSum.fill(0);
    hSum.fill(0);
    addGradients(this.o, this.scale, this.y, this.w, this.q ?? this.m, this.codes[j], gSum, hSum, this.nT, this.m);
  }

  apply(j: number, step: Float64Array, next: number, gSum: Float64Array, hSum: Float64Array): void {
    const cj = this.codes[j];
    const m = this.m;
    if (this.identity) for (let i = 0; i < m.length; i++) m[i] += step[cj[i]];
    else {
      const factor = this.factor;
      for (let b = 0; b < factor.length && b < step.length; b++) factor[b] = Math.exp(step[b]);
      for (let i = 0; i < m.length; i++) m[i] *= factor[cj[i]];
      const q = this.q;
      if (q) {
        const qf = this.qFactor;
        for (let b = 0; b < qf.length && b < step.length; b++) qf[b] = Math.exp((1 - this.o.tweediePower) * step[b]);
        for (let i = 0; i < q.length; i++) q[i] *= qf[cj[i]];
      }
    }
    this.histogram(next, gSum, hSum);
  }

  validationLoss(): number {
    const { y, m, nT } = this;
    const mu = this.log || this.identity ? m : m.map((e) => e / (1 + e));
    return meanLoss(this.o, y, mu, this.w, nT, y.length);
  }
}

/** The weighted mean absolute deviation of the training rows from their start: how far a quantile step may go. */
function quantileScale(y: Float64Array, w: Float64Array | null, start: Float64Array, nT: number): number {
  let sum = 0;
  let total = 0;
  for (let i = 0; i < nT; i++) {
    const wi = w ? w[i] : 1;
    sum += wi * Math.abs(y[i] - start[i]);
    total += wi;
  }
  return total > 0 && sum > 0 ? sum / total : 1;
}

/** The base score of a bag's training rows: the link of their weighted mean rate (α-quantile for quantile loss). */
export function baseScore(o: ResolvedObjective, y: Float64Array, w: Float64Array | null, exposure: Float64Array | null, nT: number): number {
  if (o.name === 'quantile') return weightedQuantile(y, w, o.quantileAlpha, 0, nT);
  let sum = 0;
  let total = 0;
  for (let i = 0; i < nT; i++) {
    const wi = w ? w[i] : 1;
    sum += wi * y[i];
    total += wi * (exposure ? exposure[i] : 1);
  }
  const mean = total > 0 ? sum / total : 0;
  const link = linkOf(o.name);
  if (link === 'log') return Math.log(Math.max(mean, 1e-12));
  if (link === 'identity') return mean;
  const p = Math.min(1 - 1e-9, Math.max(1e-9, mean));
  return Math.log(p / (1 - p));
}

/**
 * Adds each training row's weighted negative gradient and hessian to its bin's sums, from `m` (for Tweedie, m^(1−p),
 * with the means in `mean`). One loop per objective.
 */
function addGradients(
  o: ResolvedObjective,
  scale: number,
  y: Float64Array,
  w: Float64Array | null,
  m: Float64Array,
  c: Uint16Array,
  g: Float64Array,
  h: Float64Array,
  nT: number,
  mean: Float64Array,
): void {
  switch (o.name) {
    case 'poisson':
      for (let i = 0; i < nT; i++) {
        const wi = w ? w[i] : 1;
        g[c[i]] += wi * (y[i] - m[i]);
        h[c[i]] += wi * m[i];
      }
      return;
    case 'gamma':
      for (let i = 0; i < nT; i++) {
        const wi = w ? w[i] : 1;
        const t = y[i] / m[i];
        g[c[i]] += wi * (t - 1);
        h[c[i]] += wi * t;
      }
      return;
    case 'tweedie': {
      const p = o.tweediePower;
      for (let i = 0; i < nT; i++) {
        const wi = w ? w[i] : 1;
        const a = y[i] * m[i];
        const b = mean[i] * m[i];
        g[c[i]] += wi * (a - b);
        h[c[i]] += wi * ((p - 1) * a + (2 - p) * b);
      }
      return;
    }
    case 'huber': {
      const d = o.huberDelta;
      for (let i = 0; i < nT; i++) {
        const wi = w ? w[i] : 1;
        const r = y[i] - m[i];
        g[c[i]] += wi * (r > d ? d : r < -d ? -d : r);
        h[c[i]] += wi;
      }
      return;
    }
    case 'quantile': {
      const up = scale * o.quantileAlpha;
      const down = scale * (o.quantileAlpha - 1);
      for (let i = 0; i < nT; i++) {
        const wi = w ? w[i] : 1;
        g[c[i]] += wi * (y[i] > m[i] ? up : down);
        h[c[i]] += wi;
      }
      return;
    }
    case 'log_loss':
      for (let i = 0; i < nT; i++) {
        const wi = w ? w[i] : 1;
        const p = m[i] < 1e300 ? m[i] / (1 + m[i]) : 1;
        g[c[i]] += wi * (y[i] - p);
        h[c[i]] += wi * p * (1 - p);
      }
      return;
    default:
      for (let i = 0; i < nT; i++) {
        const wi = w ? w[i] : 1;
        g[c[i]] += wi * (y[i] - m[i]);
        h[c[i]] += wi;
      }
  }
}
