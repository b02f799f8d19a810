import type { FeatureModel } from '../model/types';

/**
 * §2.8 global renormalisation of a classifier: every feature's raw scores are scaled by the sums of all features'
 * minimum and maximum raw scores, so base + Σ contributions stays within [0, 1]. Re-run after every fit and refit;
 * the scores of features edited by hand stay as they were set.
 */
export function normaliseClassifier(features: FeatureModel[], base: number): void {
  let smin = 0;
  let smax = 0;
  for (const f of features) {
    const raw = f.leaves.raw;
    const upTo = f.params.ignore_nan ? raw.length - 1 : raw.length;
    // Clamped at 0: with ignore_nan a feature's remaining leaves can all lie on one side of the base value, and a
    // positive minimum would shrink |SMIN| and push scores below 0.
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < upTo; i++) {
      if (raw[i] < lo) lo = raw[i];
      if (raw[i] > hi) hi = raw[i];
    }
    smin += lo;
    smax += hi;
  }
  for (const f of features) {
    if (f.edited) continue;
    const { raw, score } = f.leaves;
    for (let i = 0; i < raw.length; i++) {
      const r = raw[i];
      // `+ 0` turns −0 into 0, which JSON cannot carry, so scores survive a round trip bit for bit.
      score[i] = (r === 0 ? 0 : r < 0 ? -(Math.abs(r) / Math.abs(smin)) * base : (r / smax) * (1 - base)) + 0;
    }
    if (f.params.ignore_nan) score[raw.length - 1] = 0;
  }
}
