const BINS = 20;
const KEYS = 101;
const HALF_WINDOW = 7;

export interface Calibration {
  calibration: Float64Array;
  support: Float64Array;
}

/**
 * §3.1 score → probability map (the ≤ v1.2 algorithm, empty bins kept): 20 right-closed bins over (0, 1], each
 * bin's target mean pooled with its neighbours', zeros forward-filled, expanded to keys 0..100 and smoothed with a
 * centred 15-key moving average. `support` holds each key's unsmoothed bin count.
 */
export function buildCalibration(scores: Float64Array, y: Float64Array): Calibration {
  const tc = new Float64Array(BINS);
  const ts = new Float64Array(BINS);
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i];
    if (!(s > 0)) continue;
    const bin = Math.min(BINS - 1, Math.ceil(s * BINS) - 1);
    tc[bin]++;
    ts[bin] += y[i];
  }
  const wp = new Float64Array(BINS);
  let lastNonZero = NaN;
  for (let j = 0; j < BINS; j++) {
    let rt = 0;
    let total = 0;
    for (let k = Math.max(0, j - 1); k <= Math.min(BINS - 1, j + 1); k++) {
      rt += tc[k];
      total += ts[k];
    }
    let v = total / rt;
    if (v === 0 && !Number.isNaN(lastNonZero)) v = lastNonZero;
    if (v !== 0 && !Number.isNaN(v)) lastNonZero = v;
    wp[j] = v;
  }
  const w = new Float64Array(KEYS);
  for (let k = 0; k < KEYS; k++) w[k] = wp[Math.min(BINS - 1, Math.floor(k / 5))];
  fillForwardThenZero(w);
  const calibration = new Float64Array(KEYS);
  for (let k = 0; k < KEYS; k++) {
    let s = 0;
    let c = 0;
    for (let j = Math.max(0, k - HALF_WINDOW); j <= Math.min(KEYS - 1, k + HALF_WINDOW); j++) {
      s += w[j];
      c++;
    }
    calibration[k] = s / c;
  }
  const support = new Float64Array(KEYS);
  for (let k = 0; k < KEYS; k++) support[k] = tc[Math.min(BINS - 1, Math.floor(k / 5))];
  return { calibration, support };
}

function fillForwardThenZero(a: Float64Array): void {
  let last = NaN;
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(a[i])) a[i] = last;
    else last = a[i];
  }
  for (let i = 0; i < a.length; i++) if (Number.isNaN(a[i])) a[i] = 0;
}
