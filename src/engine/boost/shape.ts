import type { BoostFeatureParams } from '../params/boosted';

/**
 * A feature's steps after its own shaping: a count-weighted moving average over `smoothing` neighbouring bins on
 * each side, then the monotone constraint as a count-weighted isotonic fit (pool adjacent violators). Both apply to
 * numeric features' value bins only; categories and the missing-value bin keep their steps.
 */
export function shapeSteps(steps: Float64Array, count: Float64Array, numeric: boolean, params: BoostFeatureParams): Float64Array {
  const out = steps.slice();
  if (!numeric) return out;
  const m = steps.length - 1;
  if (params.smoothing > 0) {
    const w = params.smoothing;
    for (let b = 0; b < m; b++) {
      let s = 0;
      let c = 0;
      for (let k = Math.max(0, b - w); k <= Math.min(m - 1, b + w); k++) {
        const weight = Math.max(count[k], 1e-9);
        s += steps[k] * weight;
        c += weight;
      }
      out[b] = s / c;
    }
  }
  if (params.monotone !== 0) isotonic(out, count, 0, m, params.monotone);
  return out;
}

/**
 * Pool adjacent violators on values[from..to), increasing (direction 1) or decreasing (−1), each value weighted by
 * its count, in place.
 */
export function isotonic(values: Float64Array, count: Float64Array, from: number, to: number, direction: 1 | -1): void {
  const level: number[] = [];
  const weight: number[] = [];
  const size: number[] = [];
  for (let b = from; b < to; b++) {
    level.push(direction * values[b]);
    weight.push(Math.max(count[b], 1e-9));
    size.push(1);
    while (level.length > 1 && level[level.length - 2] > level[level.length - 1]) {
      const w = weight[weight.length - 2] + weight[weight.length - 1];
      const v = (level[level.length - 2] * weight[weight.length - 2] + level[level.length - 1] * weight[weight.length - 1]) / w;
      const s = size[size.length - 2] + size[size.length - 1];
      level.length -= 1;
      weight.length -= 1;
      size.length -= 1;
      level[level.length - 1] = v;
      weight[weight.length - 1] = w;
      size[size.length - 1] = s;
    }
  }
  let b = from;
  level.forEach((v, i) => {
    for (let k = 0; k < size[i]; k++) values[b++] = direction * v;
  });
}
