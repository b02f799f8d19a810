import { EngineError } from '../base/errors';

/** Reading a model JSON: each problem is an EngineError naming the path of the bad value. */
export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function fail(path: string, problem: string): never {
  throw new EngineError(`Invalid model JSON: ${path} ${problem}`, path);
}

/** A number as JSON carries it: null (or a missing value) stands for the given non-finite value. */
export function num(v: unknown, path: string, ifNull = NaN): number {
  if (v === null || v === undefined) return ifNull;
  if (typeof v !== 'number') return fail(path, `must be a number (got ${JSON.stringify(v)})`);
  return v;
}

export function numbers(v: unknown, path: string): number[] {
  if (!Array.isArray(v)) return fail(path, 'must be an array of numbers');
  return v.map((x, i) => num(x, `${path}[${i}]`));
}
