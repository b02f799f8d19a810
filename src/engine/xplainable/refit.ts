import { BOOST_FEATURE_PARAM_RANGES } from '../params/boosted';
import { buildLeaves } from './construct';
import { featureOverrides } from '../plan/refitOptions';
import { EngineError } from '../base/errors';
import { applyCoefficients } from './fit';
import { normaliseClassifier } from './normalise';
import { validateParams, PARAM_NAMES } from '../params/xplainable';
import { modelFeatures } from '../model/predict';
import { lowerBound } from '../base/search';
import type {
  FeatureModel,
  Leaves,
  ModelParams,
  NumericStats,
  ParamChange,
  ParamName,
  PartitionModel,
  RefitOptions,
  RefitResult,
  TransparentModel,
} from '../model/types';

/**
 * Refit without data (§4): the listed features get new parameters and their leaves are rebuilt from the cached
 * statistics; then the classifier is renormalised globally, so every feature's scores may change (but those edited
 * by hand, unless rebuilt).
 * `min_leaf_size` is re-applied as a row count. Regressor leaves keep their Ridge coefficient when the leaf survives
 * unchanged; a new numeric leaf takes the row-weighted mean coefficient of the old leaves it overlaps (counts come
 * from the cached prefix sums). The calibration map is kept as fitted. The input model is not modified.
 */
export function refitXplainable(model: TransparentModel, options: RefitOptions = {}): RefitResult {
  if (options.removeFeatures?.length) {
    throw new EngineError('Removing features needs a model fitted with the boosted method; train a new version without them', 'removeFeatures');
  }
  const overrides = resolveOverrides(model, options);
  const regressor = model.modelType === 'regressor';
  const parametersChanged: RefitResult['parametersChanged'] = {};
  const partitions = new Map<string, PartitionModel>();
  for (const [key, part] of model.partitions) {
    const features = part.features.map((f) => {
      const override = overrides.get(f.name);
      if (!override) return cloneFeature(f);
      const params = validateParams(override, f.params);
      const changes = diffParams(f.params, params);
      if (Object.keys(changes).length === 0) return cloneFeature(f);
      if (f.nSamples === 0) {
        throw new EngineError(`Feature ${f.name} cannot be refit: the model JSON it came from has no refit cache (constructs)`, f.name);
      }
      parametersChanged[f.name] = { ...parametersChanged[f.name], ...changes };
      const rebuilt: FeatureModel = { ...f, params, leaves: buildLeaves({ ...f, params }, regressor), coef: null, edited: false };
      if (regressor && f.coef) applyCoefficients(rebuilt, carryCoefficients(f, rebuilt));
      return rebuilt;
    });
    if (!regressor) normaliseClassifier(features, part.baseValue);
    partitions.set(key, { ...part, features });
  }
  return { model: { ...model, partitions }, parametersChanged };
}

function resolveOverrides(model: TransparentModel, options: RefitOptions): Map<string, Record<string, unknown>> {
  const overrides = featureOverrides(options, new Set(modelFeatures(model)));
  // Validate every override against the defaults once up front so a bad value fails before any work.
  for (const params of overrides.values()) {
    const boostedOnly = Object.keys(params).find((name) => name in BOOST_FEATURE_PARAM_RANGES);
    if (boostedOnly) {
      throw new EngineError(
        `${boostedOnly} cannot be refit on a model fitted with the xplainable method (its refit parameters are ${PARAM_NAMES.join(', ')}); train a new version with the boosted method to use it`,
        boostedOnly,
      );
    }
    validateParams(params);
  }
  return overrides;
}

function diffParams(from: ModelParams, to: ModelParams): Partial<Record<ParamName, ParamChange>> {
  const out: Partial<Record<ParamName, ParamChange>> = {};
  for (const k of PARAM_NAMES) if (from[k] !== to[k]) out[k] = { from: from[k], to: to[k] };
  return out;
}

function cloneLeaves(l: Leaves): Leaves {
  return {
    lower: l.lower.slice(),
    upper: l.upper.slice(),
    mean: l.mean.slice(),
    count: l.count.slice(),
    freq: l.freq.slice(),
    raw: l.raw.slice(),
    score: l.score.slice(),
  };
}

function cloneFeature(f: FeatureModel): FeatureModel {
  return { ...f, params: { ...f.params }, leaves: cloneLeaves(f.leaves), coef: f.coef ? f.coef.slice() : null };
}

/** Coefficients for rebuilt leaves (see `refit`); categories and the missing-value bin keep theirs by position. */
function carryCoefficients(old: FeatureModel, rebuilt: FeatureModel): Float64Array {
  const oldCoef = old.coef as Float64Array;
  const L = rebuilt.leaves.raw.length;
  if (!old.numeric) return oldCoef.slice();
  const stats = old.numeric;
  const coef = new Float64Array(L);
  coef[L - 1] = oldCoef[oldCoef.length - 1];
  const oldL = old.leaves;
  for (let i = 0; i < L - 1; i++) {
    const lo = rebuilt.leaves.lower[i];
    const hi = rebuilt.leaves.upper[i];
    let weighted = 0;
    let total = 0;
    let single = NaN;
    let overlapping = 0;
    for (let k = 0; k < oldL.raw.length - 1; k++) {
      const overlap = countUpTo(stats, Math.min(hi, oldL.upper[k])) - countUpTo(stats, Math.max(lo, oldL.lower[k]));
      if (overlap <= 0) continue;
      weighted += overlap * oldCoef[k];
      total += overlap;
      single = oldCoef[k];
      overlapping++;
    }
    coef[i] = overlapping === 1 ? single : total > 0 ? weighted / total : 0;
  }
  return coef;
}

/** Non-missing training rows with x ≤ bound, where bound is a candidate split or ±∞. */
function countUpTo(stats: NumericStats, bound: number): number {
  if (bound === -Infinity) return 0;
  if (bound === Infinity) return stats.totalCount;
  const at = lowerBound(stats.splits, bound);
  return at < stats.splits.length ? stats.leftCounts[at] : stats.totalCount;
}
