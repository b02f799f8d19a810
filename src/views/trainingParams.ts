import {
  PARAMS_WITH_SETTING,
  TRAINING_PARAM_NAMES,
  TRAINING_PARAMS,
  isPerFeature,
  methodOf,
  type FitMethod,
  type ParamEntry,
  type ParamWithSetting,
  type SettingOf,
  describeRange,
  rangeProblem,
  type TrainingParamName,
} from '../engine/params';
import { l10n } from '../l10n/l10n';

export type ParamKey = TrainingParamName;

export type ParamValues = Partial<Record<ParamKey, number>>;

/** A training parameter as the parameter editor and the refit form show it: its table entry with its range in words. */
export interface ParamSpec extends ParamEntry {
  key: ParamKey;
  /** What it does and its valid range, shown under the parameter. */
  help: string;
  /** Returns the problem with a value, or undefined when it is valid. */
  check(value: number): string | undefined;
}

/** What each parameter does, shown under it in the editor (its range is added from the table). */
const HELP: Record<ParamKey, string> = {
  test_size: 'Fraction of rows held out for testing',
  learning_rate: 'Shrinkage of each boosting step (default 0.3 above 200,000 rows)',
  max_rounds: 'Most boosting rounds',
  early_stopping_rounds: 'Rounds without improvement on the inner validation rows before stopping',
  validation_size: 'Fraction of the training rows each bag holds out for early stopping',
  outer_bags: 'Bags whose steps are averaged (default halved above 200,000 rows)',
  max_bins: 'Most bins per numeric feature',
  interactions: 'Pairwise interaction terms kept, chosen by screening every pair (0: none)',
  interaction_bins: 'Value bins per feature of a pair term’s grid (plus one for missing values)',
  min_samples_leaf: 'Fewest rows on each side of a step',
  max_leaves: 'Leaves of each step’s small tree (default 2 up to 10,000 rows, 5 above 200,000)',
  smoothing: 'Bins on each side averaged into a numeric feature’s steps',
  monotone: 'Numeric steps only rise (1), only fall (-1) or are free (0)',
  max_depth: 'Depth of each feature’s split tree; 0 gives one bin',
  min_info_gain: 'Minimum information gain for a split (target units)',
  min_leaf_size: 'Minimum leaf size as a fraction of rows',
  weight: 'Activation weight (classifiers)',
  power_degree: 'Activation power degree (classifiers)',
  sigmoid_exponent: 'Sigmoid exponent; only 1 changes scores (classifiers)',
  tail_sensitivity: 'Tail sensitivity (regressors)',
  seed: 'Random seed of the train/test split and the bags',
};

export const paramSpecs: readonly ParamSpec[] = TRAINING_PARAM_NAMES.map((key) => {
  const entry: ParamEntry = TRAINING_PARAMS[key];
  const { range } = entry;
  return { ...entry, key, help: `${HELP[key]}: ${describeRange(range)}.`, check: (value: number) => rangeProblem(range, value) ?? undefined };
});

export function specFor(key: ParamKey): ParamSpec {
  const spec = paramSpecs.find((candidate) => candidate.key === key);
  if (!spec) throw new Error(l10n.t('Unknown parameter {0}.', key));
  return spec;
}

/** The parameters that matter for a model type and fit method, in display order. */
export function specsForModel(modelType: 'classifier' | 'regressor', scope: 'train' | 'feature', method: FitMethod): ParamSpec[] {
  return paramSpecs.filter(
    (spec) =>
      (spec.appliesTo === undefined || spec.appliesTo === modelType) &&
      (methodOf(spec) === 'both' || methodOf(spec) === method) &&
      (scope === 'train' || isPerFeature(spec)),
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

/** The `xmodels.training.*` settings, as the settings schema reads them. */
export type TrainingDefaults = { method: FitMethod } & { [K in ParamWithSetting as SettingOf<K>]: number };

/** The training defaults: each parameter's setting where it has one, else the table's default. */
export function defaultParams(defaults: TrainingDefaults): Required<ParamValues> {
  const values = Object.fromEntries(TRAINING_PARAM_NAMES.map((key) => [key, TRAINING_PARAMS[key].default])) as Required<ParamValues>;
  for (const key of PARAMS_WITH_SETTING) values[key] = defaults[TRAINING_PARAMS[key].setting];
  return values;
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
  const forMethod = paramSpecs.filter((spec) => methodOf(spec) === method).map((spec) => spec.key);
  const chosen = Object.fromEntries(forMethod.map((key) => [key, values[key]])) as ParamValues;
  return { test_size: values.test_size, seed: values.seed, ...(method === 'boosted' ? changedParams(chosen, defaults) : chosen) };
}
