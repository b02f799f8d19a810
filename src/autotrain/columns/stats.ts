/** Small descriptive statistics over finite numbers (NaN entries are skipped by `finite`). */

export function finite(values: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) out.push(values[i]);
  return out;
}

/** Minimum and maximum without spreading (safe for any length); NaN for no values. */
export function minMax(xs: readonly number[]): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const x of xs) {
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return xs.length ? { min, max } : { min: NaN, max: NaN };
}

export function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return xs.length ? s / xs.length : NaN;
}

/** Sample standard deviation (n − 1), 0 for a single value. */
export function std(xs: readonly number[]): number {
  if (xs.length < 2) return xs.length ? 0 : NaN;
  const m = mean(xs);
  let ss = 0;
  for (const x of xs) ss += (x - m) ** 2;
  return Math.sqrt(ss / (xs.length - 1));
}

/**
 * Range, mean, sample standard deviation and integrality of the finite numbers among `values`, without copying them
 * out (summed in order, as `mean` and `std` sum them); null when there are none.
 */
export function finiteStats(values: ArrayLike<number>): { min: number; max: number; mean: number; std: number; integer: boolean } | null {
  let count = 0;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  let integer = true;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    count++;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
    if (!Number.isInteger(v)) integer = false;
  }
  if (count === 0) return null;
  const average = sum / count;
  let squares = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) squares += (values[i] - average) ** 2;
  return { min, max, mean: average, std: count < 2 ? 0 : Math.sqrt(squares / (count - 1)), integer };
}

/** Linear-interpolated quantile (pandas' default) of values sorted ascending. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (!sorted.length) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export function sortedCopy(xs: readonly number[]): number[] {
  return [...xs].sort((a, b) => a - b);
}

/** Adjusted Fisher–Pearson skewness (pandas' `skew`), 0 when undefined. */
export function skewness(xs: readonly number[]): number {
  const n = xs.length;
  if (n < 3) return 0;
  const m = mean(xs);
  let m2 = 0;
  let m3 = 0;
  for (const x of xs) {
    m2 += (x - m) ** 2;
    m3 += (x - m) ** 3;
  }
  m2 /= n;
  m3 /= n;
  if (m2 === 0) return 0;
  return (Math.sqrt(n * (n - 1)) / (n - 2)) * (m3 / m2 ** 1.5);
}

/** Pearson correlation over the rows where both values are finite; null when undefined. */
export function pearson(xs: ArrayLike<number>, ys: ArrayLike<number>): { r: number | null; n: number } {
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < xs.length; i++) {
    if (Number.isFinite(xs[i]) && Number.isFinite(ys[i])) {
      n++;
      sx += xs[i];
      sy += ys[i];
    }
  }
  if (n < 3) return { r: null, n };
  const mx = sx / n;
  const my = sy / n;
  let cxy = 0;
  let cxx = 0;
  let cyy = 0;
  for (let i = 0; i < xs.length; i++) {
    if (Number.isFinite(xs[i]) && Number.isFinite(ys[i])) {
      cxy += (xs[i] - mx) * (ys[i] - my);
      cxx += (xs[i] - mx) ** 2;
      cyy += (ys[i] - my) ** 2;
    }
  }
  if (cxx === 0 || cyy === 0) return { r: null, n };
  return { r: cxy / Math.sqrt(cxx * cyy), n };
}

export function correlationStrength(r: number): string {
  const a = Math.abs(r);
  if (a >= 0.7) return 'strong';
  if (a >= 0.4) return 'moderate';
  if (a >= 0.2) return 'weak';
  return 'negligible';
}

/** Rounds for display and wire output so tiny floating-point noise does not leak into text. */
export function round(v: number, digits = 4): number {
  if (!Number.isFinite(v)) return v;
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** A short human rendering: integers as they are, other numbers to 4 significant digits. */
export function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toPrecision(4)));
}
