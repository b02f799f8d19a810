import { EngineError } from '../base/errors';
import { rangeProblem, type ParamRange } from './range';
import { DEFAULT_FIT_METHOD, FIT_METHODS, groupDefaults, groupRanges, type FitMethod, type ParamsIn } from './table';

/** Training parameters of the `boosted` method (whole model); what each does is in TRAINING_PARAMS. */
export type BoostParams = Record<ParamsIn<'boost'>, number>;

/** Per-feature parameters of a `boosted` model that a refit can change without data. */
export type BoostFeatureParams = Record<ParamsIn<'boostFeature'>, number> & {
  /** 1: steps never decrease with the value; -1: never increase; 0: free. Numeric features only. */
  monotone: -1 | 0 | 1;
};

export const DEFAULT_BOOST_PARAMS: Readonly<BoostParams> = Object.freeze(groupDefaults('boost'));
export const DEFAULT_BOOST_FEATURE_PARAMS = Object.freeze(groupDefaults('boostFeature')) as Readonly<BoostFeatureParams>;

export const BOOST_PARAM_RANGES = groupRanges('boost');
export const BOOST_FEATURE_PARAM_RANGES = groupRanges('boostFeature');

function checkedMerge<T extends object>(
  values: Record<string, unknown>,
  base: Readonly<T>,
  ranges: Readonly<Record<string, ParamRange>>,
): T {
  const out = { ...base } as Record<string, number>;
  for (const [name, value] of Object.entries(values)) {
    const range = ranges[name];
    if (!range) throw new EngineError(`Unknown parameter ${name}; known parameters: ${Object.keys(ranges).join(', ')}`, name);
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new EngineError(`${name} must be a finite number (got ${JSON.stringify(value) ?? String(value)})`, name);
    }
    const problem = rangeProblem(range, value);
    if (problem) throw new EngineError(`${name} ${problem} (got ${value})`, name);
    out[name] = value;
  }
  return out as T;
}

/** The given parameters that are set, checked, without defaults. */
export function checkedBoostParams(values: Record<string, unknown>): Partial<BoostParams> {
  validateBoostParams(values);
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null)) as Partial<BoostParams>;
}

export function validateBoostParams(values: Record<string, unknown>, base: Readonly<BoostParams> = DEFAULT_BOOST_PARAMS): BoostParams {
  return checkedMerge(values, base, BOOST_PARAM_RANGES);
}

export function validateBoostFeatureParams(
  values: Record<string, unknown>,
  base: Readonly<BoostFeatureParams> = DEFAULT_BOOST_FEATURE_PARAMS,
): BoostFeatureParams {
  return checkedMerge(values, base, BOOST_FEATURE_PARAM_RANGES);
}

export function validateFitMethod(method: unknown): FitMethod {
  if (method === undefined || method === null) return DEFAULT_FIT_METHOD;
  if (typeof method === 'string' && (FIT_METHODS as readonly string[]).includes(method)) return method as FitMethod;
  throw new EngineError(`method must be one of ${FIT_METHODS.join(', ')} (got ${JSON.stringify(method)})`, 'method');
}
