import type { ResolvedObjective } from '../params/objective';

/** The smallest probability a log loss takes the logarithm of (as the classifier metrics clip). */
const LOG_CLIP = 1e-15;

/**
 * One row's loss of predicting the mean `mu` for the target `y`: the unit deviance for Poisson, Gamma and Tweedie
 * (scikit-learn's `mean_*_deviance` terms), the squared error, the Huber loss, the pinball loss, or the log loss
 * (`mu` the probability of the positive class).
 */
export function unitLoss(o: ResolvedObjective, y: number, mu: number): number {
  switch (o.name) {
    case 'poisson':
      return 2 * ((y > 0 ? y * Math.log(y / mu) : 0) - y + mu);
    case 'gamma':
      return 2 * (Math.log(mu / y) + y / mu - 1);
    case 'tweedie': {
      const p = o.tweediePower;
      return 2 * (Math.pow(Math.max(y, 0), 2 - p) / ((1 - p) * (2 - p)) - (y * Math.pow(mu, 1 - p)) / (1 - p) + Math.pow(mu, 2 - p) / (2 - p));
    }
    case 'huber': {
      const r = Math.abs(y - mu);
      return r <= o.huberDelta ? 0.5 * r * r : o.huberDelta * (r - 0.5 * o.huberDelta);
    }
    case 'quantile': {
      const d = y - mu;
      return d >= 0 ? o.quantileAlpha * d : (o.quantileAlpha - 1) * d;
    }
    case 'log_loss': {
      const p = Math.min(1 - LOG_CLIP, Math.max(LOG_CLIP, mu));
      return y === 1 ? -Math.log(p) : -Math.log(1 - p);
    }
    default:
      return (y - mu) * (y - mu);
  }
}

/** The (weighted) mean of unitLoss over rows [from, to). */
export function meanLoss(o: ResolvedObjective, y: ArrayLike<number>, mu: ArrayLike<number>, w: ArrayLike<number> | null, from = 0, to = y.length): number {
  let sum = 0;
  let total = 0;
  for (let i = from; i < to; i++) {
    const wi = w ? w[i] : 1;
    sum += wi * unitLoss(o, y[i], mu[i]);
    total += wi;
  }
  return total > 0 ? sum / total : NaN;
}

/** The weighted α-quantile of y over rows [from, to): the smallest value whose rows at or below it weigh ≥ α of all. */
export function weightedQuantile(y: ArrayLike<number>, w: ArrayLike<number> | null, alpha: number, from = 0, to = y.length): number {
  const idx = Array.from({ length: to - from }, (_, k) => from + k).sort((a, b) => y[a] - y[b]);
  let total = 0;
  for (const i of idx) total += w ? w[i] : 1;
  let below = 0;
  for (const i of idx) {
    below += w ? w[i] : 1;
    if (below >= alpha * total) return y[i];
  }
  return idx.length ? y[idx[idx.length - 1]] : NaN;
}
