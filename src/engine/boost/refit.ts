import { BOOST_FEATURE_PARAM_RANGES, validateBoostFeatureParams, type BoostFeatureParams } from '../params/boosted';
import { EngineError } from '../base/errors';
import type { FeatureModel, ParamChange, PartitionModel, RefitOptions, RefitResult, TransparentModel } from '../model/types';
import { featureOverrides, knownFeature } from '../plan/refitOptions';
import { centre } from './assemble';
import { checkedPairNames, withoutPairs } from '../model/pairs';
import { shapeSteps } from './shape';

const NAMES = Object.keys(BOOST_FEATURE_PARAM_RANGES) as (keyof BoostFeatureParams)[];

/**
 * Refit of a `boosted` model without data: the listed features get new smoothing or monotone constraints, applied
 * to their kept bag-averaged steps and re-centred (the shift moves into the base value), and `removeFeatures` drops
 * features; their contributions were centred on the training rows, so the base value already carries their average.
 * Parameters of the `xplainable` method need a new fit and are refused with their name.
 */
export function refitBoosted(model: TransparentModel, options: RefitOptions, known: Set<string>): RefitResult {
  const overrides = boostOverrides(options, known);
  const removed = new Set(options.removeFeatures ?? []);
  const removedPairs = checkedPairNames(model, options.removePairs ?? []);
  const parametersChanged: RefitResult['parametersChanged'] = {};
  const partitions = new Map<string, PartitionModel>();
  for (const [key, part] of model.partitions) {
    let baseValue = part.baseValue;
    const features: FeatureModel[] = [];
    for (const f of part.features) {
      if (removed.has(f.name)) continue;
      const boost = f.boost;
      const override = overrides.get(f.name);
      if (!boost || !override) {
        features.push(f);
        continue;
      }
      const params = validateBoostFeatureParams(override, boost.params);
      const changes: Record<string, ParamChange> = {};
      for (const k of NAMES) if (params[k] !== boost.params[k]) changes[k] = { from: boost.params[k], to: params[k] };
      if (Object.keys(changes).length === 0) {
        features.push(f);
        continue;
      }
      parametersChanged[f.name] = { ...parametersChanged[f.name], ...changes };
      const numeric = f.type === 'numeric' || f.ordinal === true;
      const before = shapeSteps(boost.steps, f.leaves.count, numeric, boost.params);
      const after = shapeSteps(boost.steps, f.leaves.count, numeric, params);
      baseValue += centre(after, f.leaves.count) - centre(before, f.leaves.count);
      features.push({ ...f, leaves: { ...f.leaves, score: after }, boost: { params, steps: boost.steps } });
    }
    partitions.set(key, withoutPairs({ ...part, baseValue, features }, removed, removedPairs));
  }
  return { model: { ...model, partitions }, parametersChanged };
}

function boostOverrides(options: RefitOptions, known: Set<string>): Map<string, Record<string, unknown>> {
  for (const name of options.removeFeatures ?? []) knownFeature(name, known);
  const overrides = featureOverrides(options, known);
  for (const params of overrides.values()) {
    for (const name of Object.keys(params)) {
      if (!(NAMES as string[]).includes(name)) {
        throw new EngineError(
          `${name} cannot be refit on a model fitted with the boosted method (its refit parameters are ${NAMES.join(', ')}); train a new version to change it`,
          name,
        );
      }
    }
    validateBoostFeatureParams(params);
  }
  return overrides;
}
