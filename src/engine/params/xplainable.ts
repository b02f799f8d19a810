import { EngineError } from '../base/errors';
import { rangeProblem } from './range';
import { groupDefaults, groupRanges, type ParamsIn } from './table';

/** Per-feature tree and activation parameters (transparent-models.md §11); what each does is in TRAINING_PARAMS. */
export type ModelParams = Record<ParamsIn<'params'>, number> & { ignore_nan: boolean };
export type ParamName = keyof ModelParams;

const { max_depth, min_info_gain, min_leaf_size, ...activation } = groupDefaults('params');
/** In the reference library's order: the tree's parameters, `ignore_nan`, then the activation's. */
export const DEFAULT_PARAMS: Readonly<ModelParams> = Object.freeze({ max_depth, min_info_gain, min_leaf_size, ignore_nan: false, ...activation });

export const PARAM_NAMES = Object.keys(DEFAULT_PARAMS) as ParamName[];

/** The valid values of the `xplainable` method's numeric parameters (transparent-models.md §11). */
export const PARAM_RANGES = groupRanges('params');

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
