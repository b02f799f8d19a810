import { validateBoostFeatureParams, validateBoostParams, validateFitMethod, type BoostFeatureParams } from '../params/boosted';
import { emptyNumericStats } from './featureStats';
import { DATASET_PARTITION } from './partitions';
import { parseJsonWithNonFinite } from './json';
import { fail, isObject, num, numbers, type Json } from './payloadReading';
import { pairsFromPayload, pairsPayload } from './pairPayload';

export { fail };
import { DEFAULT_PARAMS, PARAM_NAMES, validateAlpha, validateParams } from '../params/xplainable';
import { featureImportances, partitionProfile } from './profile';
import { modelLink } from './predict';
import { defaultObjective, OBJECTIVE_PARAMS, objectiveOf, resolveObjective, type ObjectiveName } from '../params/objective';
import type {
  CategoryStats,
  FeatureModel,
  FeatureType,
  Label,
  Leaves,
  ModelParams,
  ModelType,
  NumericStats,
  PartitionModel,
  TransparentModel,
  WireModelType,
} from './types';

/** Refit cache of one feature in the model JSON (transparent-models.md §7 `constructs`, with exact sums). */
export interface ConstructPayload {
  feature: string;
  type: FeatureType;
  regressor: boolean;
  fitted_samples: number;
  base_value: number;
  /** Numeric: candidate split values; categorical: the categories in code order. */
  base_partition: number[] | string[];
  /** Numeric: rows with x ≤ split and their target sums; `total` = [non-missing count, target sum]. */
  left_counts?: number[];
  left_sums?: number[];
  total?: [number, number];
  /** Categorical: rows and target sums per category. */
  counts?: number[];
  sums?: number[];
  /** [missing count, mean target of the missing rows] and the exact sum. */
  null_meta: [number, number];
  null_sum?: number;
  /** The feature's own params, or null when they equal the model's. */
  params: ModelParams | null;
  /** Regressor: the Ridge coefficient of every leaf. */
  coefficients?: number[] | null;
  /** `boosted` method: the feature's smoothing and monotone constraint (its steps are the profile bins' `raw`). */
  boost_params?: BoostFeatureParams;
  /** `xplainable` method: the profile bins' `score` was edited by hand and does not follow from their `raw`. */
  edited?: true;
}

/** One partition of a fitted model as uploaded (the contract's PartitionPayload). */
export interface PartitionPayload {
  partition: string;
  columns: string[];
  id_columns: string[];
  feature_map: Record<string, Record<string, number>>;
  target_map: Record<string, Label> | null;
  base_value: number;
  parameters: Record<string, unknown>;
  profile: string | Record<string, unknown>;
  feature_importances: Record<string, number>;
  calibration_map: Record<string, number> | null;
  support_map: Record<string, number> | null;
  category_meta: Record<string, { means: Record<string, number>; freqs: Record<string, number> }> | null;
  evaluation: string | Record<string, unknown> | null;
  training_metadata: string | Record<string, unknown> | null;
  health_info: string | Record<string, unknown> | null;
  constructs?: ConstructPayload[];
}

export interface FromPayloadOptions {
  target?: string;
  partitionOn?: string | null;
  /** Each payload's index in the list the caller read, for errors (`partitions[i]`); default its index here. */
  indexes?: readonly number[];
}

const finiteOrNull = (v: number): number | null => (Number.isFinite(v) ? v : null);
const keyed = (a: Float64Array): Record<string, number> => Object.fromEntries(Array.from(a, (v, k) => [String(k), v]));

/** The model as one PartitionPayload per partition (`__dataset__` first), refit cache included. */
export function toPayloads(model: TransparentModel): PartitionPayload[] {
  return [...model.partitions.values()].map((p) => partitionPayload(model, p));
}

function partitionPayload(model: TransparentModel, p: PartitionModel): PartitionPayload {
  const profile = partitionProfile(p);
  // A model without the bags' spread (xplainable, or read from a JSON without it) writes none, so its JSON reads back as it was.
  const withRaw = (bins: { score: number; score_std?: number }[], f: FeatureModel): Record<string, unknown>[] =>
    bins.map(({ score_std: std, ...b }, i) => ({ ...b, raw: f.leaves.raw[i], ...(f.leaves.std ? { score_std: std } : {}) }));
  const categorical = p.features.filter((f) => f.type === 'categorical');
  return {
    partition: p.key,
    columns: p.features.map((f) => f.name),
    id_columns: p.idColumns,
    feature_map: Object.fromEntries(
      categorical.map((f) => [f.name, Object.fromEntries((f.categorical as CategoryStats).categories.map((c, i) => [c, i]))]),
    ),
    target_map: model.targetLabels ? { 0: model.targetLabels[0], 1: model.targetLabels[1] } : null,
    base_value: p.baseValue,
    parameters: {
      ...p.params,
      method: model.method,
      ...(p.boost ? { boost: p.boost.params, bag_rounds: p.boost.rounds } : {}),
      alpha: p.alpha,
      prediction_range: p.predictionRange.map(finiteOrNull),
      n_train: p.nTrain,
      target: model.target,
      partition_on: model.partitionOn,
      ...objectiveParameters(model),
    },
    profile: {
      base_value: p.baseValue,
      numeric: Object.fromEntries(p.features.filter((f) => f.type === 'numeric').map((f) => [f.name, withRaw(profile.numeric[f.name], f)])),
      categorical: Object.fromEntries(categorical.map((f) => [f.name, withRaw(profile.categorical[f.name], f)])),
      ...pairsPayload(p),
      ...(profile.ordinal ? { ordinal: profile.ordinal } : {}),
    },
    feature_importances: Object.fromEntries(featureImportances(p).map((fi) => [fi.feature, fi.importance])),
    calibration_map: p.calibration ? keyed(p.calibration) : null,
    support_map: p.support ? keyed(p.support) : null,
    category_meta: Object.fromEntries(
      categorical.map((f) => {
        const c = f.categorical as CategoryStats;
        return [
          f.name,
          {
            means: Object.fromEntries(c.categories.map((_, i) => [String(i), c.sums[i] / c.counts[i]])),
            freqs: Object.fromEntries(c.categories.map((_, i) => [String(i), c.counts[i] / f.nSamples])),
          },
        ];
      }),
    ),
    evaluation: null,
    training_metadata: { n_train: p.nTrain },
    health_info: null,
    constructs: p.features.map((f) => constructPayload(f, p.params, model.modelType === 'regressor')),
  };
}

function constructPayload(f: FeatureModel, modelParams: ModelParams, regressor: boolean): ConstructPayload {
  if (f.boost) {
    return {
      feature: f.name,
      type: f.type,
      regressor,
      fitted_samples: f.nSamples,
      base_value: f.baseValue,
      base_partition: [],
      null_meta: [f.missingCount, f.missingCount > 0 ? f.missingSum / f.missingCount : 0],
      null_sum: f.missingSum,
      params: null,
      boost_params: { ...f.boost.params },
    };
  }
  const sameParams = PARAM_NAMES.every((k) => f.params[k] === modelParams[k]);
  const base = {
    feature: f.name,
    type: f.type,
    regressor,
    fitted_samples: f.nSamples,
    base_value: f.baseValue,
    null_meta: [f.missingCount, f.missingCount > 0 ? f.missingSum / f.missingCount : 0] as [number, number],
    null_sum: f.missingSum,
    params: sameParams ? null : { ...f.params },
    coefficients: f.coef ? Array.from(f.coef) : null,
    ...(f.edited ? { edited: true as const } : {}),
  };
  if (f.numeric) {
    const s = f.numeric;
    return {
      ...base,
      base_partition: Array.from(s.splits),
      left_counts: Array.from(s.leftCounts),
      left_sums: Array.from(s.leftSums),
      total: [s.totalCount, s.totalSum],
    };
  }
  const c = f.categorical as CategoryStats;
  return { ...base, base_partition: [...c.categories], counts: Array.from(c.counts), sums: Array.from(c.sums) };
}

// ---------------------------------------------------------------------------------------------------------------
// Import


function parseMaybeString(v: unknown, path: string): unknown {
  if (typeof v !== 'string') return v;
  try {
    return parseJsonWithNonFinite(v);
  } catch {
    return fail(path, 'is a string that is not valid JSON');
  }
}


/**
 * Rebuilds a model from its PartitionPayloads: ours (profile object with `missing` flags and `null` infinite
 * bounds, exact constructs) or the hosted format (profile as a JSON string of node arrays, possibly with NaN and
 * Infinity tokens; constructs with mean-based `base_meta`). Predictions of a round-tripped model are identical.
 */
export function fromPayloads(
  payloads: readonly unknown[],
  modelType: ModelType | WireModelType,
  options: FromPayloadOptions = {},
): TransparentModel {
  const type: ModelType =
    modelType === 'binary_classification' || modelType === 'classifier'
      ? 'classifier'
      : modelType === 'regression' || modelType === 'regressor'
        ? 'regressor'
        : fail('model_type', `must be binary_classification or regression (got ${String(modelType)})`);
  if (!Array.isArray(payloads) || payloads.length === 0) fail('partitions', 'must be a non-empty array');
  const partitions = new Map<string, PartitionModel>();
  let labels: [Label, Label] | null = null;
  const first = isObject(payloads[0]) && isObject(payloads[0].parameters) ? payloads[0].parameters : {};
  const method = validateFitMethod(first.method ?? 'xplainable');
  let target = options.target;
  let partitionOn = options.partitionOn;
  payloads.forEach((raw, i) => {
    const path = `partitions[${options.indexes?.[i] ?? i}]`;
    if (!isObject(raw)) fail(path, 'must be an object');
    const part = partitionFromPayload(raw, type, path, payloads.length === 1, method === 'boosted');
    partitions.set(part.key, part);
    const params = isObject(raw.parameters) ? raw.parameters : {};
    target ??= typeof params.target === 'string' ? params.target : undefined;
    if (partitionOn === undefined && (typeof params.partition_on === 'string' || params.partition_on === null)) {
      partitionOn = params.partition_on;
    }
    if (type === 'classifier' && raw.target_map) labels ??= targetLabels(raw.target_map, `${path}.target_map`);
  });
  if (!partitions.has(DATASET_PARTITION)) fail('partitions', `must include the ${DATASET_PARTITION} partition`);
  const ordered = new Map([[DATASET_PARTITION, partitions.get(DATASET_PARTITION) as PartitionModel], ...partitions]);
  return {
    modelType: type,
    method,
    target: target ?? 'target',
    partitionOn: partitionOn ?? null,
    targetLabels: type === 'classifier' ? (labels ?? [0, 1]) : null,
    partitions: ordered,
    ...objectiveFromPayload(first, type),
  };
}

/** A model's objective, weight and exposure columns as its partitions' `parameters` record them (none: the defaults). */
export function objectiveParameters(model: TransparentModel): Record<string, unknown> {
  const o = model.objective;
  if (!o && !model.weightColumn && !model.exposureColumn) return {};
  return {
    objective: o?.name ?? defaultObjective(model.modelType),
    link: modelLink(model),
    ...Object.fromEntries(
      (Object.keys(OBJECTIVE_PARAMS) as (keyof typeof OBJECTIVE_PARAMS)[]).filter((k) => o?.[k] !== undefined).map((k) => [OBJECTIVE_PARAMS[k].wire, o?.[k]]),
    ),
    ...(model.weightColumn ? { weight_column: model.weightColumn } : {}),
    ...(model.exposureColumn ? { exposure_column: model.exposureColumn } : {}),
  };
}

function objectiveFromPayload(params: Json, type: ModelType): Pick<TransparentModel, 'objective' | 'weightColumn' | 'exposureColumn'> {
  const out: Pick<TransparentModel, 'objective' | 'weightColumn' | 'exposureColumn'> = {};
  if (typeof params.objective === 'string' && params.objective !== defaultObjective(type)) {
    const given = Object.fromEntries(
      (Object.keys(OBJECTIVE_PARAMS) as (keyof typeof OBJECTIVE_PARAMS)[]).filter((k) => params[OBJECTIVE_PARAMS[k].wire] !== undefined).map((k) => [k, params[OBJECTIVE_PARAMS[k].wire]]),
    );
    try {
      out.objective = objectiveOf(resolveObjective({ name: params.objective as ObjectiveName, ...given }, type));
    } catch (e) {
      fail('parameters.objective', (e as Error).message);
    }
  }
  if (typeof params.weight_column === 'string') out.weightColumn = params.weight_column;
  if (typeof params.exposure_column === 'string') out.exposureColumn = params.exposure_column;
  return out;
}

/** Code → label, or the reference's label → code. */
function targetLabels(v: unknown, path: string): [Label, Label] {
  if (!isObject(v)) return fail(path, 'must be an object');
  if ('0' in v && '1' in v) return [v['0'] as Label, v['1'] as Label];
  const entries = Object.entries(v);
  const neg = entries.find(([, c]) => c === 0);
  const pos = entries.find(([, c]) => c === 1);
  if (!neg || !pos) return fail(path, 'must map the codes 0 and 1 to labels');
  return [neg[0], pos[0]];
}

function partitionFromPayload(raw: Json, type: ModelType, path: string, only: boolean, boosted: boolean): PartitionModel {
  const key = typeof raw.partition === 'string' ? raw.partition : fail(`${path}.partition`, 'must be a string');
  const columns = Array.isArray(raw.columns) ? raw.columns.map(String) : fail(`${path}.columns`, 'must be an array');
  const paramsIn = isObject(raw.parameters) ? raw.parameters : {};
  const params = validateParams(Object.fromEntries(PARAM_NAMES.filter((k) => k in paramsIn).map((k) => [k, paramsIn[k]])));
  const alpha = paramsIn.alpha === undefined ? 0.1 : validateAlpha(paramsIn.alpha);
  const range = Array.isArray(paramsIn.prediction_range) ? paramsIn.prediction_range : [null, null];
  const featureMap = isObject(raw.feature_map) ? raw.feature_map : {};
  const profile = parseMaybeString(raw.profile, `${path}.profile`);
  const constructs = Array.isArray(raw.constructs) ? raw.constructs : null;
  const ordinal = new Set(isObject(profile) && Array.isArray(profile.ordinal) ? profile.ordinal.map(String) : []);
  const fitted = columns.map((name, fi) => {
    const fpath = `${path}.profile.${name}`;
    const leaves = Array.isArray(profile)
      ? hostedLeaves(profile[fi], isObject(featureMap[name]) ? (featureMap[name] as Json) : null, fpath)
      : ourLeaves(profile, name, fpath);
    const construct = constructs?.[fi];
    if (boosted) return boostedFeature(name, leaves, construct, num(paramsIn.n_train, `${path}.parameters.n_train`, 0), `${path}.constructs[${fi}]`);
    return construct
      ? featureFromConstruct(construct, name, params, leaves, `${path}.constructs[${fi}]`)
      : featureFromLeaves(name, leaves, params, num(raw.base_value, `${path}.base_value`));
  });
  const features = fitted.map((f): FeatureModel => (ordinal.has(f.name) && f.type === 'categorical' ? { ...f, ordinal: true } : f));
  const calibration = type === 'classifier' ? keyedArray(raw.calibration_map, `${path}.calibration_map`) : null;
  const pairs = isObject(profile) ? pairsFromPayload(profile.interactions, new Map(features.map((f) => [f.name, f.type])), `${path}.profile.interactions`) : [];
  return {
    key: only && key !== DATASET_PARTITION ? DATASET_PARTITION : key,
    nTrain: num(paramsIn.n_train, `${path}.parameters.n_train`, 0),
    baseValue: num(raw.base_value, `${path}.base_value`),
    params,
    alpha,
    features,
    idColumns: Array.isArray(raw.id_columns) ? raw.id_columns.map(String) : [],
    calibration,
    support: type === 'classifier' ? keyedArray(raw.support_map, `${path}.support_map`) : null,
    predictionRange: [num(range[0], `${path}.parameters.prediction_range[0]`, -Infinity), num(range[1], `${path}.parameters.prediction_range[1]`, Infinity)],
    boost: boosted
      ? {
          params: validateBoostParams(isObject(paramsIn.boost) ? paramsIn.boost : {}),
          rounds: Array.isArray(paramsIn.bag_rounds) ? numbers(paramsIn.bag_rounds, `${path}.parameters.bag_rounds`) : [],
        }
      : null,
    ...(pairs.length ? { pairs } : {}),
  };
}

/** A `boosted` feature: its leaves as exported, the profile's `raw` as its steps, counts from the frequencies. */
function boostedFeature(name: string, p: ProfileLeaves, construct: unknown, n: number, path: string): FeatureModel {
  const c = isObject(construct) ? construct : {};
  const leaves = leavesOf(p, n);
  const last = leaves.count.length - 1;
  const categories = p.categories;
  return {
    name,
    type: p.type,
    params: { ...DEFAULT_PARAMS },
    nSamples: n,
    baseValue: c.base_value === undefined ? 0 : num(c.base_value, `${path}.base_value`),
    missingCount: leaves.count[last],
    missingSum: c.null_sum === undefined ? 0 : num(c.null_sum, `${path}.null_sum`),
    numeric: p.type === 'numeric' ? emptyNumericStats() : null,
    categorical:
      p.type === 'categorical'
        ? { categories, counts: leaves.count.slice(0, last), sums: Float64Array.from(categories, (_, i) => leaves.mean[i] * leaves.count[i]) }
        : null,
    leaves,
    coef: null,
    boost: { params: validateBoostFeatureParams(isObject(c.boost_params) ? c.boost_params : {}), steps: p.raw.slice() },
  };
}

interface ProfileLeaves {
  type: FeatureType;
  lower: Float64Array;
  upper: Float64Array;
  score: Float64Array;
  mean: Float64Array;
  freq: Float64Array;
  raw: Float64Array;
  categories: string[];
  std?: Float64Array | null;
}

function ourLeaves(profile: unknown, name: string, path: string): ProfileLeaves {
  if (!isObject(profile)) return fail(path, 'is missing: the profile must be an object or a JSON string');
  const numeric = isObject(profile.numeric) ? profile.numeric[name] : undefined;
  const categorical = isObject(profile.categorical) ? profile.categorical[name] : undefined;
  const bins = numeric ?? categorical;
  if (!Array.isArray(bins) || bins.length === 0) return fail(path, 'has no bins');
  const type: FeatureType = numeric ? 'numeric' : 'categorical';
  const at = (k: string, ifNull: number) => Float64Array.from(bins, (b: Json, i) => (b.missing ? NaN : num(b[k], `${path}[${i}].${k}`, ifNull)));
  const field = (k: string) => Float64Array.from(bins, (b: Json, i) => num(b[k], `${path}[${i}].${k}`));
  if (!(bins[bins.length - 1] as Json).missing) fail(path, 'must end with the missing-value bin (missing: true)');
  return {
    type,
    lower: type === 'numeric' ? at('lower', -Infinity) : new Float64Array(bins.length).fill(NaN),
    upper: type === 'numeric' ? at('upper', Infinity) : new Float64Array(bins.length).fill(NaN),
    score: field('score'),
    mean: field('mean'),
    freq: field('freq'),
    raw: Float64Array.from(bins, (b: Json, i) => num(b.raw, `${path}[${i}].raw`, 0)),
    categories: type === 'categorical' ? bins.slice(0, -1).map((b: Json) => String(b.category)) : [],
    std: bins.some((b: Json) => b.score_std !== undefined) ? Float64Array.from(bins, (b: Json, i) => num(b.score_std, `${path}[${i}].score_std`, 0)) : null,
  };
}

/**
 * Hosted node arrays (§2.7): numeric rows [lower, upper, score, mean, freq, raw], categorical rows
 * [code, score, mean, freq, raw]; the last row is the missing-value bin. Non-finite bounds that the hosted service
 * turned into null or NaN are read as −∞ (lower) and +∞ (upper).
 */
function hostedLeaves(nodes: unknown, featureMap: Json | null, path: string): ProfileLeaves {
  if (!Array.isArray(nodes) || nodes.length === 0 || !nodes.every(Array.isArray)) return fail(path, 'must be a list of node rows');
  const rows = nodes as unknown[][];
  const last = rows.length - 1;
  const col = (j: number, ifNull = NaN) => Float64Array.from(rows, (r, i) => num(r.at(j), `${path}[${i}][${j}]`, ifNull));
  const type: FeatureType = featureMap || rows[0].length === 5 ? 'categorical' : 'numeric';
  const bound = (j: number, fill: number) => {
    const v = col(j);
    for (let i = 0; i < last; i++) if (Number.isNaN(v[i])) v[i] = fill;
    v[last] = NaN;
    return v;
  };
  let categories: string[] = [];
  if (type === 'categorical') {
    const byCode = new Map(Object.entries(featureMap ?? {}).map(([c, code]) => [code, c]));
    categories = rows.slice(0, last).map((r, i) => byCode.get(r[0]) ?? fail(`${path}[${i}][0]`, `is a code missing from feature_map`));
  }
  return {
    type,
    lower: type === 'numeric' ? bound(0, -Infinity) : new Float64Array(rows.length).fill(NaN),
    upper: type === 'numeric' ? bound(1, Infinity) : new Float64Array(rows.length).fill(NaN),
    score: col(-4),
    mean: col(-3),
    freq: col(-2),
    raw: col(-1, 0),
    categories,
  };
}

/** The profile's leaves are what predictions use, exactly as exported; counts are recovered from the frequencies. */
function leavesOf(p: ProfileLeaves, n: number): Leaves {
  return { lower: p.lower, upper: p.upper, mean: p.mean, count: p.freq.map((f) => Math.round(f * n)), freq: p.freq, raw: p.raw, score: p.score, ...(p.std ? { std: p.std } : {}) };
}

/** A feature without a refit cache: prediction works; refit then fails with a clear error. */
function featureFromLeaves(name: string, p: ProfileLeaves, params: ModelParams, base: number): FeatureModel {
  const leaves = leavesOf(p, 0);
  return {
    name,
    type: p.type,
    params: { ...params },
    nSamples: 0,
    baseValue: base,
    missingCount: 0,
    missingSum: 0,
    numeric: p.type === 'numeric' ? emptyNumericStats() : null,
    categorical: p.type === 'categorical' ? { categories: p.categories, counts: new Float64Array(p.categories.length), sums: new Float64Array(p.categories.length) } : null,
    leaves,
    coef: null,
  };
}

/**
 * A feature with its refit cache (the construct) and the profile's leaves. The hosted format's construct lists
 * category codes instead of categories; they are mapped through the profile's categories (in code order).
 */
function featureFromConstruct(c: unknown, name: string, modelParams: ModelParams, profile: ProfileLeaves, path: string): FeatureModel {
  if (!isObject(c)) return fail(path, 'must be an object');
  const n = num(c.fitted_samples, `${path}.fitted_samples`);
  const base = num(c.base_value, `${path}.base_value`);
  const nullMeta = numbers(c.null_meta, `${path}.null_meta`);
  const missingCount = nullMeta[0];
  const missingSum = c.null_sum === undefined ? nullMeta[0] * nullMeta[1] : num(c.null_sum, `${path}.null_sum`);
  const params = isObject(c.params) ? validateParams(c.params, modelParams) : { ...modelParams };
  const partition = Array.isArray(c.base_partition) ? c.base_partition : fail(`${path}.base_partition`, 'must be an array');
  let numeric: NumericStats | null = null;
  let categorical: CategoryStats | null = null;
  const type = c.type === 'categorical' ? 'categorical' : 'numeric';
  if (type === 'numeric') {
    const splits = Float64Array.from(numbers(partition, `${path}.base_partition`));
    if (c.left_counts !== undefined) {
      const total = numbers(c.total, `${path}.total`);
      numeric = {
        splits,
        leftCounts: Float64Array.from(numbers(c.left_counts, `${path}.left_counts`)),
        leftSums: Float64Array.from(numbers(c.left_sums, `${path}.left_sums`)),
        totalCount: total[0],
        totalSum: total[1],
      };
    } else numeric = statsFromMeta(c.base_meta, splits, n - missingCount, base * n - missingSum, `${path}.base_meta`);
  } else {
    const categories = partition.map((v, i) =>
      typeof v === 'number' ? (profile.categories[v] ?? fail(`${path}.base_partition[${i}]`, `is an unknown code ${v}`)) : String(v),
    );
    if (c.counts !== undefined) {
      categorical = {
        categories,
        counts: Float64Array.from(numbers(c.counts, `${path}.counts`)),
        sums: Float64Array.from(numbers(c.sums, `${path}.sums`)),
      };
    } else {
      const meta = Array.isArray(c.base_meta) ? c.base_meta : fail(`${path}.base_meta`, 'must be an array');
      categorical = {
        categories,
        counts: Float64Array.from(meta, (m, i) => numbers(m, `${path}.base_meta[${i}]`)[0]),
        sums: Float64Array.from(meta, (m, i) => {
          const [count, mean] = numbers(m, `${path}.base_meta[${i}]`);
          return count * mean;
        }),
      };
    }
  }
  return {
    name,
    type,
    params,
    nSamples: n,
    baseValue: base,
    missingCount,
    missingSum,
    numeric,
    categorical,
    leaves: leavesOf(profile, n),
    coef: Array.isArray(c.coefficients) ? Float64Array.from(numbers(c.coefficients, `${path}.coefficients`)) : null,
    ...(c.edited === true ? { edited: true } : {}),
  };
}

/** Reference `base_meta` (S × [[left count, left mean], [right count, right mean]]) as prefix sums. */
function statsFromMeta(meta: unknown, splits: Float64Array, totalCount: number, totalSum: number, path: string): NumericStats {
  if (!Array.isArray(meta) || meta.length !== splits.length) return fail(path, 'must have one entry per split');
  const leftCounts = new Float64Array(splits.length);
  const leftSums = new Float64Array(splits.length);
  meta.forEach((m, i) => {
    const left = Array.isArray(m) ? numbers(m[0], `${path}[${i}][0]`) : fail(`${path}[${i}]`, 'must be [[count, mean], [count, mean]]');
    leftCounts[i] = left[0];
    leftSums[i] = left[0] * left[1];
  });
  return { splits, leftCounts, leftSums, totalCount, totalSum };
}

/** {"0": v, …, "100": v} → 101 values; keys the hosted service left out take the previous key's value. */
function keyedArray(v: unknown, path: string): Float64Array | null {
  if (v === null || v === undefined) return null;
  if (!isObject(v)) return fail(path, 'must be an object keyed 0..100');
  const out = new Float64Array(101);
  let last = 0;
  for (let k = 0; k <= 100; k++) {
    const x = v[String(k)];
    if (x !== undefined && x !== null) last = num(x, `${path}.${k}`);
    out[k] = last;
  }
  return out;
}
