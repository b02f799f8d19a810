/** Replaces every non-finite number (NaN, ±Infinity) by null, as the wire requires. */
export function finiteJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v))) as T;
}
