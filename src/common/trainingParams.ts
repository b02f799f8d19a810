import type { TrainingDefaults } from './settingsSchema';

export type ParamKey =
  | 'test_size'
  | 'max_depth'
  | 'min_info_gain'
  | 'min_leaf_size'
  | 'weight'
  | 'power_degree'
  | 'sigmoid_exponent'
  | 'tail_sensitivity'
  | 'seed';

export type ParamValues = Partial<Record<ParamKey, number>>;

export interface ParamSpec {
  key: ParamKey;
  /** What it does and its valid range, shown under the parameter. */
  help: string;
  /** Which model types it changes (the engine ignores the others). */
  appliesTo: 'both' | 'classifier' | 'regressor';
  /** A feature-level parameter (refit accepts it); the rest are training-only. */
  perFeature: boolean;
  /** Returns the problem with a value, or undefined when it is valid. */
  check(value: number): string | undefined;
}

const between = (low: number, high: number, lowOpen = false, highOpen = false) => (value: number) =>
  (lowOpen ? value > low : value >= low) && (highOpen ? value < high : value <= high)
    ? undefined
    : `must be ${lowOpen ? 'greater than' : 'at least'} ${low} and ${highOpen ? 'less than' : 'at most'} ${high}`;
const wholeAtLeast = (low: number) => (value: number) =>
  Number.isInteger(value) && value >= low ? undefined : `must be a whole number of at least ${low}`;

export const paramSpecs: readonly ParamSpec[] = [
  { key: 'test_size', help: 'Fraction of rows held out for testing, between 0 and 1.', appliesTo: 'both', perFeature: false, check: between(0, 1, true, true) },
  { key: 'max_depth', help: 'Depth of each feature’s split tree; 0 gives one bin.', appliesTo: 'both', perFeature: true, check: wholeAtLeast(0) },
  { key: 'min_info_gain', help: 'Minimum information gain for a split, -1 to 1 (target units).', appliesTo: 'both', perFeature: true, check: between(-1, 1, false, true) },
  { key: 'min_leaf_size', help: 'Minimum leaf size as a fraction of rows, -1 to 1.', appliesTo: 'both', perFeature: true, check: between(-1, 1, false, true) },
  { key: 'weight', help: 'Activation weight, 0 to 3 (classifiers).', appliesTo: 'classifier', perFeature: true, check: between(0, 3) },
  {
    key: 'power_degree',
    help: 'Activation power degree: 1, 3 or 5 (classifiers).',
    appliesTo: 'classifier',
    perFeature: true,
    check: (value) => ([1, 3, 5].includes(value) ? undefined : 'must be 1, 3 or 5'),
  },
  { key: 'sigmoid_exponent', help: 'Sigmoid exponent, 0 to 1; only 1 changes scores (classifiers).', appliesTo: 'classifier', perFeature: true, check: between(0, 1) },
  { key: 'tail_sensitivity', help: 'Tail sensitivity, 0 to 10 (regressors).', appliesTo: 'regressor', perFeature: true, check: between(0, 10) },
  { key: 'seed', help: 'Random seed of the train/test split.', appliesTo: 'both', perFeature: false, check: wholeAtLeast(0) },
];

export function specFor(key: ParamKey): ParamSpec {
  const spec = paramSpecs.find((candidate) => candidate.key === key);
  if (!spec) throw new Error(`Unknown parameter ${key}.`);
  return spec;
}

/** The parameters that matter for a model type, in display order. */
export function specsForModel(modelType: 'classifier' | 'regressor', scope: 'train' | 'feature'): ParamSpec[] {
  return paramSpecs.filter(
    (spec) => (spec.appliesTo === 'both' || spec.appliesTo === modelType) && (scope === 'train' || spec.perFeature),
  );
}

/** Parses what the user typed for a parameter: the number, or a sentence naming the parameter and the bad value. */
export function parseParam(key: ParamKey, text: string): { value: number } | { problem: string } {
  const trimmed = text.trim();
  const value = trimmed === '' ? Number.NaN : Number(trimmed);
  if (!Number.isFinite(value)) return { problem: `${key} must be a number (got "${text}").` };
  const problem = specFor(key).check(value);
  return problem ? { problem: `${key} ${problem} (got ${value}).` } : { value };
}

/** The training defaults from settings, under the service's parameter names. */
export function defaultParams(defaults: TrainingDefaults): Required<ParamValues> {
  return {
    test_size: defaults.testSize,
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
