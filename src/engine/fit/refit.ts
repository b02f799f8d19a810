import { refitBoosted } from '../boost/refit';
import { modelFeatures } from '../model/predict';
import type { RefitOptions, RefitResult, TransparentModel } from '../model/types';
import { refitXplainable } from '../xplainable/refit';

/** Refit without data by the method the model was fitted with. The input model is not modified. */
export function refit(model: TransparentModel, options: RefitOptions = {}): RefitResult {
  return model.method === 'boosted' ? refitBoosted(model, options, new Set(modelFeatures(model))) : refitXplainable(model, options);
}
