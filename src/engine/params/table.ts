import type { ParamRange } from './range';

/**
 * How a model's per-feature step functions are fitted.
 * - `boosted`: jointly, by cyclic gradient boosting on binned features with shrinkage, an inner validation split with
 *   early stopping and bagging. Classifier scores are log-odds.
 * - `xplainable`: the reference algorithm, each feature's tree fitted to the target on its own (§2–§6).
 */
export const FIT_METHODS = ['boosted', 'xplainable'] as const;
export type FitMethod = (typeof FIT_METHODS)[number];

/** The fit method parameter: the one place that decides the default method. */
export const METHOD_PARAM = {
  values: FIT_METHODS,
  default: 'boosted' as FitMethod,
  setting: 'method',
} as const;
export const DEFAULT_FIT_METHOD: FitMethod = METHOD_PARAM.default;

/**
 * Where a parameter goes in the engine's fit options: `params` (the `xplainable` method's tree and activation
 * parameters), `boost` (the `boosted` method's training parameters), `boostFeature` (its per-feature ones), or `split`
 * (the train/test split and the seed, read by the caller and by both methods).
 */
export type ParamGroup = 'split' | 'params' | 'boost' | 'boostFeature';

export interface ParamEntry {
  range: ParamRange;
  default: number;
  /** The fit method it belongs to; `both` for the split. */
  method: FitMethod | 'both';
  /** Which model types it changes (the engine ignores the others). */
  appliesTo: 'both' | 'classifier' | 'regressor';
  /** A feature-level parameter (refit accepts it); the rest are training-only. */
  perFeature: boolean;
  group: ParamGroup;
  /** What it does, shown under the parameter (its range is added from `range`). */
  help: string;
  /** Its `xmodels.training.*` setting, when it has one. */
  setting?: string;
}

/**
 * Every numeric training parameter, keyed by its wire name, in display order. The engine's ranges and defaults, the
 * wire schema's fields, the settings and the parameter editor are all derived from this table.
 */
export const TRAINING_PARAMS = {
  test_size: {
    range: { min: 0, max: 1, minOpen: true, maxOpen: true },
    default: 0.2,
    method: 'both',
    appliesTo: 'both',
    perFeature: false,
    group: 'split',
    help: 'Fraction of rows held out for testing',
    setting: 'testSize',
  },
  learning_rate: {
    range: { min: 0, max: 1, minOpen: true },
    default: 0.2,
    method: 'boosted',
    appliesTo: 'both',
    perFeature: false,
    group: 'boost',
    help: 'Shrinkage of each boosting step (default 0.3 above 200,000 rows)',
  },
  max_rounds: {
    range: { min: 1, max: 100_000, integer: true },
    default: 2000,
    method: 'boosted',
    appliesTo: 'both',
    perFeature: false,
    group: 'boost',
    help: 'Most boosting rounds',
  },
  early_stopping_rounds: {
    range: { min: 1, max: 10_000, integer: true },
    default: 50,
    method: 'boosted',
    appliesTo: 'both',
    perFeature: false,
    group: 'boost',
    help: 'Rounds without improvement on the inner validation rows before stopping',
  },
  validation_size: {
    range: { min: 0, max: 0.5, minOpen: true },
    default: 0.15,
    method: 'boosted',
    appliesTo: 'both',
    perFeature: false,
    group: 'boost',
    help: 'Fraction of the training rows each bag holds out for early stopping',
  },
  outer_bags: {
    range: { min: 1, max: 64, integer: true },
    default: 8,
    method: 'boosted',
    appliesTo: 'both',
    perFeature: false,
    group: 'boost',
    help: 'Bags whose steps are averaged (default halved above 200,000 rows)',
  },
  max_bins: {
    range: { min: 2, max: 1024, integer: true },
    default: 128,
    method: 'boosted',
    appliesTo: 'both',
    perFeature: false,
    group: 'boost',
    help: 'Most bins per numeric feature',
  },
  min_samples_leaf: {
    range: { min: 1, max: 1_000_000, integer: true },
    default: 10,
    method: 'boosted',
    appliesTo: 'both',
    perFeature: false,
    group: 'boost',
    help: 'Fewest rows on each side of a step',
  },
  max_leaves: {
    range: { min: 2, max: 64, integer: true },
    default: 3,
    method: 'boosted',
    appliesTo: 'both',
    perFeature: false,
    group: 'boost',
    help: 'Leaves of each step’s small tree (default 2 up to 10,000 rows, 5 above 200,000)',
  },
  smoothing: {
    range: { min: 0, max: 50, integer: true },
    default: 0,
    method: 'boosted',
    appliesTo: 'both',
    perFeature: true,
    group: 'boostFeature',
    help: 'Bins on each side averaged into a numeric feature’s steps',
  },
  monotone: {
    range: { min: -1, max: 1, values: [-1, 0, 1] },
    default: 0,
    method: 'boosted',
    appliesTo: 'both',
    perFeature: true,
    group: 'boostFeature',
    help: 'Numeric steps only rise (1), only fall (-1) or are free (0)',
  },
  max_depth: {
    range: { min: 0, max: 64, integer: true },
    default: 8,
    method: 'xplainable',
    appliesTo: 'both',
    perFeature: true,
    group: 'params',
    help: 'Depth of each feature’s split tree; 0 gives one bin',
    setting: 'maxDepth',
  },
  min_info_gain: {
    range: { min: -1, max: 1, maxOpen: true },
    default: 0.0001,
    method: 'xplainable',
    appliesTo: 'both',
    perFeature: true,
    group: 'params',
    help: 'Minimum information gain for a split (target units)',
    setting: 'minInfoGain',
  },
  min_leaf_size: {
    range: { min: -1, max: 1, maxOpen: true },
    default: 0.0001,
    method: 'xplainable',
    appliesTo: 'both',
    perFeature: true,
    group: 'params',
    help: 'Minimum leaf size as a fraction of rows',
    setting: 'minLeafSize',
  },
  weight: {
    range: { min: 0, max: 3 },
    default: 1,
    method: 'xplainable',
    appliesTo: 'classifier',
    perFeature: true,
    group: 'params',
    help: 'Activation weight (classifiers)',
    setting: 'weight',
  },
  power_degree: {
    range: { min: 1, max: 5, values: [1, 3, 5] },
    default: 1,
    method: 'xplainable',
    appliesTo: 'classifier',
    perFeature: true,
    group: 'params',
    help: 'Activation power degree (classifiers)',
    setting: 'powerDegree',
  },
  sigmoid_exponent: {
    range: { min: 0, max: 1 },
    default: 0,
    method: 'xplainable',
    appliesTo: 'classifier',
    perFeature: true,
    group: 'params',
    help: 'Sigmoid exponent; only 1 changes scores (classifiers)',
    setting: 'sigmoidExponent',
  },
  tail_sensitivity: {
    range: { min: 0, max: 10 },
    default: 1,
    method: 'xplainable',
    appliesTo: 'regressor',
    perFeature: true,
    group: 'params',
    help: 'Tail sensitivity (regressors)',
    setting: 'tailSensitivity',
  },
  seed: {
    range: { min: 0, max: Infinity, integer: true },
    default: 42,
    method: 'both',
    appliesTo: 'both',
    perFeature: false,
    group: 'split',
    help: 'Random seed of the train/test split and the bags',
    setting: 'seed',
  },
} as const satisfies Record<string, ParamEntry>;

export type TrainingParamName = keyof typeof TRAINING_PARAMS;
type Table = typeof TRAINING_PARAMS;

/** The parameters of one group, by wire name. */
export type ParamsIn<G extends ParamGroup> = { [K in TrainingParamName]: Table[K]['group'] extends G ? K : never }[TrainingParamName];

/** The parameters that are per-feature (refit accepts them), by wire name. */
export type PerFeatureParamName = { [K in TrainingParamName]: Table[K]['perFeature'] extends true ? K : never }[TrainingParamName];

/** The `xmodels.training.*` setting keys of the parameters that have one. */
export type SettingOf<K extends TrainingParamName> = Table[K] extends { setting: infer S extends string } ? S : never;
export type ParamWithSetting = { [K in TrainingParamName]: SettingOf<K> extends never ? never : K }[TrainingParamName];

export const TRAINING_PARAM_NAMES = Object.keys(TRAINING_PARAMS) as TrainingParamName[];

/** The names of the parameters whose entry passes `keep`, in table order. */
export function paramNames<K extends TrainingParamName = TrainingParamName>(keep: (entry: ParamEntry) => boolean): K[] {
  return TRAINING_PARAM_NAMES.filter((name) => keep(TRAINING_PARAMS[name])) as K[];
}

export function groupNames<G extends ParamGroup>(group: G): ParamsIn<G>[] {
  return paramNames<ParamsIn<G>>((entry) => entry.group === group);
}

export const PER_FEATURE_PARAM_NAMES = paramNames<PerFeatureParamName>((entry) => entry.perFeature);

/** The ranges of a group's parameters. */
export function groupRanges<G extends ParamGroup>(group: G): Readonly<Record<ParamsIn<G>, ParamRange>> {
  return Object.freeze(Object.fromEntries(groupNames(group).map((name) => [name, TRAINING_PARAMS[name].range]))) as Record<ParamsIn<G>, ParamRange>;
}

/** The defaults of a group's parameters. */
export function groupDefaults<G extends ParamGroup>(group: G): Record<ParamsIn<G>, number> {
  return Object.fromEntries(groupNames(group).map((name) => [name, TRAINING_PARAMS[name].default])) as Record<ParamsIn<G>, number>;
}

export const PARAMS_WITH_SETTING = paramNames<ParamWithSetting>((entry) => entry.setting !== undefined);
