import { assembleBoosted, binParts, planBoosted, runBag, type Binner } from '../boost/fitBoosted';
import { assemblePairs, planPairs, runPairBag } from '../boost/fitPairs';
import type { DataFrame } from '../data/frame';
import type { FitOptions, TransparentModel } from '../model/types';
import { planFit, type FitPlan } from '../plan/plan';
import { assembleModel, featureTasks, fitFeatureTask } from '../xplainable/fit';

/**
 * Fits a transparent model: one additive per-feature model on all rows (`__dataset__`) and, with `partitionOn`,
 * one more per distinct value of that column. Rows whose target is missing are left out. Single-threaded; see
 * `fitModelParallel` for large data.
 */
export function fitModel(frame: DataFrame, options: FitOptions): TransparentModel {
  return fitPlan(planFit(frame, options));
}

/** Fits a planned model on this thread; `bin` bins its columns when boosted (see binOnce to share bins). */
export function fitPlan(plan: FitPlan, bin: Binner = binParts): TransparentModel {
  if (plan.method === 'boosted') {
    const boosted = planBoosted(plan, bin);
    const model = assembleBoosted(boosted, boosted.tasks.map(runBag));
    const pairs = planPairs(boosted, model);
    return pairs ? assemblePairs(boosted, pairs, model, pairs.tasks.map(runPairBag)) : model;
  }
  return assembleModel(plan, featureTasks(plan).map(fitFeatureTask));
}
