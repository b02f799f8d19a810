import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { partPath } from './scratchFiles';

/** JSON text with every non-finite number (NaN, ±Infinity) written as null, as the wire requires. */
const finiteText = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v));

/** Replaces every non-finite number (NaN, ±Infinity) by null, as the wire requires. */
export function finiteJson<T>(value: T): T {
  return JSON.parse(finiteText(value)) as T;
}

/** Writes `value` as finite JSON under a temporary name, then renames it, so a reader never sees half a file. */
export function writeFiniteJsonFile<T>(path: string, value: T): T {
  const text = finiteText(value);
  const part = partPath(path);
  writeFileSync(part, text);
  renameSync(part, path);
  return JSON.parse(text) as T;
}

export function isMissingFile(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** A JSON file's value; null when there is no such file. */
function readJsonFileSync<T>(path: string): T | null {
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
