/** First index in [from, to) whose value is ≥ target in a non-decreasing array (`to` when none is). */
export function lowerBound(a: ArrayLike<number>, target: number, from = 0, to = a.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
