import { EngineError } from './errors';
import type { ModelParams, ParamName } from './types';

export const DEFAULT_PARAMS: Readonly<ModelParams> = Object.freeze({
  max_depth: 8,
  min_info_gain: 0.0001,
  min_leaf_size: 0.0001,
  ignore_nan: false,
  weight: 1,
  power_degree: 1,
  sigmoid_exponent: 0,
  tail_sensitivity: 1,
});

export const PARAM_NAMES = Object.keys(DEFAULT_PARAMS) as ParamName[];

type Check = (v: number) => string | null;
const range =
  (lo: number, hi: number, hiOpen: boolean): Check =>
  (v) =>
    v < lo || (hiOpen ? v >= hi : v > hi) ? `must be between ${lo} and ${hi}${hiOpen ? ' (exclusive)' : ''}` : null;

const NUMERIC_CHECKS: Record<Exclude<ParamName, 'ignore_nan'>, Check> = {
  max_depth: (v) => (Number.isInteger(v) && v >= 0 ? null : 'must be a whole number ≥ 0'),
  min_info_gain: range(-1, 1, true),
  min_leaf_size: range(-1, 1, true),
  weight: range(0, 3, false),
  power_degree: (v) => (v === 1 || v === 3 || v === 5 ? null : 'must be 1, 3 or 5'),
  sigmoid_exponent: range(0, 1, false),
  tail_sensitivity: range(0, 10, false),
};

/**
 * Checks parameter overrides and merges them onto `base`. Unknown names, wrong types and out-of-range
 * values throw an EngineError whose `field` is the parameter name. `undefined`/`null` keep the base value.
 */
export function validateParams(params: Record<string, unknown>, base: Readonly<ModelParams> = DEFAULT_PARAMS): ModelParams {
  const out: ModelParams = { ...base };
  for (const [name, value] of Object.entries(params)) {
    if (!(PARAM_NAMES as string[]).includes(name)) {
      throw new EngineError(`Unknown parameter ${name}; known parameters: ${PARAM_NAMES.join(', ')}`, name);
    }
    if (value === undefined || value === null) continue;
    if (name === 'ignore_nan') {
      if (typeof value !== 'boolean') throw new EngineError(`ignore_nan must be true or false (got ${String(value)})`, name);
      out.ignore_nan = value;
      continue;
    }
    const key = name as Exclude<ParamName, 'ignore_nan'>;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new EngineError(`${name} must be a finite number (got ${JSON.stringify(value) ?? String(value)})`, name);
    }
    const problem = NUMERIC_CHECKS[key](value);
    if (problem) throw new EngineError(`${name} ${problem} (got ${value})`, name);
    out[key] = value;
  }
  return out;
}

/** Candidate-split density (fit argument `alpha`, §2.2): [0, 1). */
export function validateAlpha(alpha: unknown): number {
  if (typeof alpha !== 'number' || !Number.isFinite(alpha) || alpha < 0 || alpha >= 1) {
    throw new EngineError(`alpha must be a number in [0, 1) (got ${String(alpha)})`, 'alpha');
  }
  return alpha;
}
