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
  /** The one model type it changes, when it changes only one (the engine ignores it for the other). */
  appliesTo?: 'classifier' | 'regressor';
  group: ParamGroup;
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
    group: 'split',
    setting: 'testSize',
  },
  learning_rate: {
    range: { min: 0, max: 1, minOpen: true },
    default: 0.2,
    group: 'boost',
  },
  max_rounds: {
    range: { min: 1, max: 100_000, integer: true },
    default: 2000,
    group: 'boost',
  },
  early_stopping_rounds: {
    range: { min: 1, max: 10_000, integer: true },
    default: 50,
    group: 'boost',
  },
  validation_size: {
    range: { min: 0, max: 0.5, minOpen: true },
    default: 0.15,
    group: 'boost',
  },
  outer_bags: {
    range: { min: 1, max: 64, integer: true },
    default: 8,
    group: 'boost',
  },
  max_bins: {
    range: { min: 2, max: 1024, integer: true },
    default: 128,
    group: 'boost',
  },
  interactions: {
    range: { min: 0, max: 100, integer: true },
    default: 10,
    group: 'boost',
  },
  interaction_bins: {
    range: { min: 2, max: 64, integer: true },
    default: 8,
    group: 'boost',
  },
  min_samples_leaf: {
    range: { min: 1, max: 1_000_000, integer: true },
    default: 10,
    group: 'boost',
  },
  max_leaves: {
    range: { min: 2, max: 64, integer: true },
    default: 3,
    group: 'boost',
  },
  smoothing: {
    range: { min: 0, max: 50, integer: true },
    default: 0,
    group: 'boostFeature',
  },
  monotone: {
    range: { min: -1, max: 1, values: [-1, 0, 1] },
    default: 0,
    group: 'boostFeature',
  },
  max_depth: {
    range: { min: 0, max: 64, integer: true },
    default: 8,
    group: 'params',
    setting: 'maxDepth',
  },
  min_info_gain: {
    range: { min: -1, max: 1, maxOpen: true },
    default: 0.0001,
    group: 'params',
    setting: 'minInfoGain',
  },
  min_leaf_size: {
    range: { min: -1, max: 1, maxOpen: true },
    default: 0.0001,
    group: 'params',
    setting: 'minLeafSize',
  },
  weight: {
    range: { min: 0, max: 3 },
    default: 1,
    appliesTo: 'classifier',
    group: 'params',
    setting: 'weight',
  },
  power_degree: {
    range: { min: 1, max: 5, values: [1, 3, 5] },
    default: 1,
    appliesTo: 'classifier',
    group: 'params',
    setting: 'powerDegree',
  },
  sigmoid_exponent: {
    range: { min: 0, max: 1 },
    default: 0,
    appliesTo: 'classifier',
    group: 'params',
    setting: 'sigmoidExponent',
  },
  tail_sensitivity: {
    range: { min: 0, max: 10 },
    default: 1,
    appliesTo: 'regressor',
    group: 'params',
    setting: 'tailSensitivity',
  },
  seed: {
    range: { min: 0, max: Infinity, integer: true },
    default: 42,
    group: 'split',
    setting: 'seed',
  },
} as const satisfies Record<string, ParamEntry>;

export type TrainingParamName = keyof typeof TRAINING_PARAMS;
type Table = typeof TRAINING_PARAMS;

/** The parameters of one group, by wire name. */
export type ParamsIn<G extends ParamGroup> = { [K in TrainingParamName]: Table[K]['group'] extends G ? K : never }[TrainingParamName];

/** The parameters that are per-feature (refit accepts them), by wire name. */
export type PerFeatureParamName = ParamsIn<'params' | 'boostFeature'>;

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

/** The fit method a parameter belongs to: its group's; `both` for the split. */
export function methodOf(entry: ParamEntry): FitMethod | 'both' {
  return entry.group === 'split' ? 'both' : entry.group === 'params' ? 'xplainable' : 'boosted';
}

/** Whether a parameter is per-feature (refit accepts it): the tree parameters of `xplainable`, the feature ones of `boosted`. */
export const isPerFeature = (entry: ParamEntry): boolean => entry.group === 'params' || entry.group === 'boostFeature';

export const PER_FEATURE_PARAM_NAMES = paramNames<PerFeatureParamName>(isPerFeature);

/** The ranges of a group's parameters. */
export function groupRanges<G extends ParamGroup>(group: G): Readonly<Record<ParamsIn<G>, ParamRange>> {
  return Object.freeze(Object.fromEntries(groupNames(group).map((name) => [name, TRAINING_PARAMS[name].range]))) as Record<ParamsIn<G>, ParamRange>;
}

/** The defaults of a group's parameters. */
export function groupDefaults<G extends ParamGroup>(group: G): Record<ParamsIn<G>, number> {
  return Object.fromEntries(groupNames(group).map((name) => [name, TRAINING_PARAMS[name].default])) as Record<ParamsIn<G>, number>;
}

export const PARAMS_WITH_SETTING = paramNames<ParamWithSetting>((entry) => entry.setting !== undefined);
