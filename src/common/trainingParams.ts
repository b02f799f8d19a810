import {
  BOOST_FEATURE_PARAM_RANGES,
  BOOST_PARAM_RANGES,
  DEFAULT_BOOST_FEATURE_PARAMS,
  DEFAULT_BOOST_PARAMS,
  DEFAULT_FIT_METHOD,
  type BoostFeatureParams,
  type BoostParams,
  type FitMethod,
} from '../engine/params/boosted';
import { describeRange, rangeProblem, type ParamRange } from '../engine/params/range';
import { DEFAULT_PARAMS, PARAM_RANGES } from '../engine/params/xplainable';
import { SPLIT_RANGES } from '../engine/evaluate/split';
import type { TrainingDefaults } from './settingsSchema';

type XplainableKey = keyof typeof PARAM_RANGES;
export type ParamKey = 'test_size' | 'seed' | XplainableKey | keyof BoostParams | keyof BoostFeatureParams;

export type ParamValues = Partial<Record<ParamKey, number>>;

export interface ParamSpec {
  key: ParamKey;
  /** What it does and its valid range, shown under the parameter. */
  help: string;
  /** Which model types it changes (the engine ignores the others). */
  appliesTo: 'both' | 'classifier' | 'regressor';
  /** The fit method it belongs to; `both` for the train/test split. */
  method: FitMethod | 'both';
  /** A feature-level parameter (refit accepts it); the rest are training-only. */
  perFeature: boolean;
  range: ParamRange;
  /** Returns the problem with a value, or undefined when it is valid. */
  check(value: number): string | undefined;
}

type SpecText = Pick<ParamSpec, 'appliesTo' | 'method' | 'perFeature'> & { what: string };

/** What each parameter does; its range comes from the engine's tables. */
const TEXT: Record<ParamKey, SpecText> = {
  test_size: { what: 'Fraction of rows held out for testing', appliesTo: 'both', method: 'both', perFeature: false },
  learning_rate: { what: 'Shrinkage of each boosting step (default 0.3 above 200,000 rows)', appliesTo: 'both', method: 'boosted', perFeature: false },
  max_rounds: { what: 'Most boosting rounds', appliesTo: 'both', method: 'boosted', perFeature: false },
  early_stopping_rounds: { what: 'Rounds without improvement on the inner validation rows before stopping', appliesTo: 'both', method: 'boosted', perFeature: false },
  validation_size: { what: 'Fraction of the training rows each bag holds out for early stopping', appliesTo: 'both', method: 'boosted', perFeature: false },
  outer_bags: { what: 'Bags whose steps are averaged (default halved above 200,000 rows)', appliesTo: 'both', method: 'boosted', perFeature: false },
  max_bins: { what: 'Most bins per numeric feature', appliesTo: 'both', method: 'boosted', perFeature: false },
  min_samples_leaf: { what: 'Fewest rows on each side of a step', appliesTo: 'both', method: 'boosted', perFeature: false },
  max_leaves: { what: 'Leaves of each step’s small tree (default 2 up to 10,000 rows, 5 above 200,000)', appliesTo: 'both', method: 'boosted', perFeature: false },
  smoothing: { what: 'Bins on each side averaged into a numeric feature’s steps', appliesTo: 'both', method: 'boosted', perFeature: true },
  monotone: { what: 'Numeric steps only rise (1), only fall (-1) or are free (0)', appliesTo: 'both', method: 'boosted', perFeature: true },
  max_depth: { what: 'Depth of each feature’s split tree; 0 gives one bin', appliesTo: 'both', method: 'xplainable', perFeature: true },
  min_info_gain: { what: 'Minimum information gain for a split (target units)', appliesTo: 'both', method: 'xplainable', perFeature: true },
  min_leaf_size: { what: 'Minimum leaf size as a fraction of rows', appliesTo: 'both', method: 'xplainable', perFeature: true },
  weight: { what: 'Activation weight (classifiers)', appliesTo: 'classifier', method: 'xplainable', perFeature: true },
  power_degree: { what: 'Activation power degree (classifiers)', appliesTo: 'classifier', method: 'xplainable', perFeature: true },
  sigmoid_exponent: { what: 'Sigmoid exponent; only 1 changes scores (classifiers)', appliesTo: 'classifier', method: 'xplainable', perFeature: true },
  tail_sensitivity: { what: 'Tail sensitivity (regressors)', appliesTo: 'regressor', method: 'xplainable', perFeature: true },
  seed: { what: 'Random seed of the train/test split and the bags', appliesTo: 'both', method: 'both', perFeature: false },
};

const RANGES: Record<ParamKey, ParamRange> = { ...SPLIT_RANGES, ...BOOST_PARAM_RANGES, ...BOOST_FEATURE_PARAM_RANGES, ...PARAM_RANGES };

export const paramSpecs: readonly ParamSpec[] = (Object.keys(TEXT) as ParamKey[]).map((key) => {
  const { what, ...rest } = TEXT[key];
  const range = RANGES[key];
  return { key, ...rest, range, help: `${what}: ${describeRange(range)}.`, check: (value: number) => rangeProblem(range, value) ?? undefined };
});

export function specFor(key: ParamKey): ParamSpec {
  const spec = paramSpecs.find((candidate) => candidate.key === key);
  if (!spec) throw new Error(`Unknown parameter ${key}.`);
  return spec;
}

/** The parameters that matter for a model type and fit method, in display order. */
export function specsForModel(modelType: 'classifier' | 'regressor', scope: 'train' | 'feature', method: FitMethod): ParamSpec[] {
  return paramSpecs.filter(
    (spec) =>
      (spec.appliesTo === 'both' || spec.appliesTo === modelType) &&
      (spec.method === 'both' || spec.method === method) &&
      (scope === 'train' || spec.perFeature),
  );
}

/** The fit method a version records (versions from before the boosted method have none: the reference method). */
export function methodOfVersion(parameters: Record<string, unknown>): FitMethod {
  return parameters.method === 'boosted' ? 'boosted' : 'xplainable';
}

/** Parses what the user typed for a parameter: the number, or a sentence naming the parameter and the bad value. */
export function parseParam(key: ParamKey, text: string): { value: number } | { problem: string } {
  const trimmed = text.trim();
  const value = trimmed === '' ? Number.NaN : Number(trimmed);
  if (!Number.isFinite(value)) return { problem: `${key} must be a number (got "${text}").` };
  const problem = specFor(key).check(value);
  return problem ? { problem: `${key} ${problem} (got ${value}).` } : { value };
}

/**
 * The `xmodels.training.*` settings' defaults (the settings schema's), kept free of zod so the panels' scripts can
 * use them without it.
 */
export const TRAINING_DEFAULTS = {
  method: DEFAULT_FIT_METHOD as FitMethod,
  testSize: 0.2,
  maxDepth: DEFAULT_PARAMS.max_depth,
  minInfoGain: DEFAULT_PARAMS.min_info_gain,
  minLeafSize: DEFAULT_PARAMS.min_leaf_size,
  weight: DEFAULT_PARAMS.weight,
  powerDegree: DEFAULT_PARAMS.power_degree,
  sigmoidExponent: DEFAULT_PARAMS.sigmoid_exponent,
  tailSensitivity: DEFAULT_PARAMS.tail_sensitivity,
  seed: 42,
};

/** The training defaults: the split and reference-method ones from settings, the boosted ones from the engine. */
export function defaultParams(defaults: TrainingDefaults): Required<ParamValues> {
  return {
    test_size: defaults.testSize,
    ...DEFAULT_BOOST_PARAMS,
    ...DEFAULT_BOOST_FEATURE_PARAMS,
    max_depth: defaults.maxDepth,
    min_info_gain: defaults.minInfoGain,
    min_leaf_size: defaults.minLeafSize,
    weight: defaults.weight,
    power_degree: defaults.powerDegree,
    sigmoid_exponent: defaults.sigmoidExponent,
    tail_sensitivity: defaults.tailSensitivity,
    seed: defaults.seed,
  };
}

/** The numeric parameters a version was trained with (its `parameters` record may hold other entries too). */
export function paramsFromVersion(parameters: Record<string, unknown>, fallback: Required<ParamValues>): Required<ParamValues> {
  const values = { ...fallback };
  for (const spec of paramSpecs) {
    const value = parameters[spec.key];
    if (typeof value === 'number' && Number.isFinite(value)) values[spec.key] = value;
  }
  return values;
}

/** Only the parameters whose value differs from `base`. */
export function changedParams(values: ParamValues, base: ParamValues): ParamValues {
  return Object.fromEntries(Object.entries(values).filter(([key, value]) => base[key as ParamKey] !== value)) as ParamValues;
}

/**
 * What a train request carries for the chosen method: the split always; the reference method's parameters as set
 * (its defaults come from settings); the boosted ones only where they differ from the engine's defaults, so the
 * engine can pick its defaults for the data's size.
 */
export function trainRequestParams(method: FitMethod, values: Required<ParamValues>, defaults: Required<ParamValues>): ParamValues {
  const forMethod = paramSpecs.filter((spec) => spec.method === method).map((spec) => spec.key);
  const chosen = Object.fromEntries(forMethod.map((key) => [key, values[key]])) as ParamValues;
  return { test_size: values.test_size, seed: values.seed, ...(method === 'boosted' ? changedParams(chosen, defaults) : chosen) };
}
