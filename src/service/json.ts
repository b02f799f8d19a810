import { renameSync, writeFileSync } from 'node:fs';

/** Replaces every non-finite number (NaN, ±Infinity) by null, as the wire requires. */
export function finiteJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v))) as T;
}

/** Writes `value` as finite JSON under a temporary name, then renames it, so a reader never sees half a file. */
export function writeFiniteJsonFile<T>(path: string, value: T): T {
  const finite = finiteJson(value);
  writeFileSync(`${path}.part`, JSON.stringify(finite));
  renameSync(`${path}.part`, path);
  return finite;
}
