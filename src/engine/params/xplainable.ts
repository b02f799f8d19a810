import { EngineError } from '../errors';
import { rangeProblem, type ParamRange } from './range';

/** Per-feature tree and activation parameters (transparent-models.md §11). */
export interface ModelParams {
  max_depth: number;
  min_info_gain: number;
  min_leaf_size: number;
  ignore_nan: boolean;
  weight: number;
  power_degree: number;
  sigmoid_exponent: number;
  tail_sensitivity: number;
}
export type ParamName = keyof ModelParams;

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

/** The valid values of the `xplainable` method's numeric parameters (transparent-models.md §11). */
export const PARAM_RANGES: Readonly<Record<Exclude<ParamName, 'ignore_nan'>, ParamRange>> = Object.freeze({
  max_depth: { min: 0, max: 64, integer: true },
  min_info_gain: { min: -1, max: 1, maxOpen: true },
  min_leaf_size: { min: -1, max: 1, maxOpen: true },
  weight: { min: 0, max: 3 },
  power_degree: { min: 1, max: 5, values: [1, 3, 5] },
  sigmoid_exponent: { min: 0, max: 1 },
  tail_sensitivity: { min: 0, max: 10 },
});

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
    const problem = rangeProblem(PARAM_RANGES[key], value);
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
