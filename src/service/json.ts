import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

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

function isMissingFile(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** A JSON file's value; null when there is no such file. */
export function readJsonFileSync<T>(path: string): T | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (error) {
    if (isMissingFile(error)) return null;
    throw error;
  }
}

/** A JSON file's value read without blocking; null when there is no such file. */
export async function readJsonFile<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    if (isMissingFile(error)) return null;
    throw error;
  }
}

/** The value cached in a JSON file, or `compute()` written to it now when there is no such file. */
export function cachedJsonFileSync<T>(path: string, compute: () => T): T {
  return readJsonFileSync<T>(path) ?? writeFiniteJsonFile(path, compute());
}
