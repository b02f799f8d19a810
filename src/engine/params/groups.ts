import type { BoostFeatureParams, BoostParams } from './boosted';
import { groupNames, PER_FEATURE_PARAM_NAMES, type PerFeatureParamName, type TrainingParamName } from './table';
import type { ModelParams } from './xplainable';

/** The fit options that carry training parameters, one group per TRAINING_PARAMS `group`. */
export interface ParamGroups {
  /** `xplainable` only: tree and activation parameters (defaults: DEFAULT_PARAMS). */
  params: Partial<ModelParams>;
  /** `boosted` only: training parameters (defaults: DEFAULT_BOOST_PARAMS, resolved for the data's size). */
  boost: Partial<BoostParams>;
  /** `boosted` only: per-feature parameters applied to every feature (defaults: none); checked by the engine. */
  boostFeature: Partial<Record<keyof BoostFeatureParams, number>>;
}

type WireParams = Partial<Record<TrainingParamName, unknown>>;

/** The numbers given for `names` (omitted ones stay out, so the engine's defaults apply). */
function givenParams<K extends TrainingParamName>(values: WireParams, names: readonly K[]): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const name of names) if (typeof values[name] === 'number') out[name] = values[name] as number;
  return out;
}

/** Wire parameters (by their wire names, checked by the contract) as the fit options' groups. */
export function paramGroups(values: WireParams): ParamGroups {
  return {
    params: givenParams(values, groupNames('params')),
    boost: givenParams(values, groupNames('boost')),
    boostFeature: givenParams(values, groupNames('boostFeature')),
  };
}

/** The per-feature parameters among wire parameters: what a refit changes. */
export function perFeatureParams(values: WireParams): Partial<Record<PerFeatureParamName, number>> {
  return givenParams(values, PER_FEATURE_PARAM_NAMES);
}
