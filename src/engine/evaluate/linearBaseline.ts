import type { DataFrame } from '../data/frame';
import { fitLinearTerms, sigmoid } from '../linear/linearTerms';
import type { ModelType } from '../model/types';

export interface LinearBaseline {
  /** Regressor: the predicted value; classifier: the probability of the positive class (code 1). */
  predict(frame: DataFrame): Float64Array;
}

/** The linear yardstick a transparent model is compared with (fitLinearTerms), predicting values or probabilities. */
export function fitLinearBaseline(frame: DataFrame, features: readonly string[], y: Float64Array, modelType: ModelType): LinearBaseline {
  const terms = fitLinearTerms(frame, features, y, modelType);
  return {
    predict(target: DataFrame): Float64Array {
      const out = new Float64Array(target.nRows).fill(terms.intercept);
      for (const c of terms.contributions(target).values()) for (let i = 0; i < out.length; i++) out[i] += c[i];
      return modelType === 'regressor' ? out : out.map(sigmoid);
    },
  };
}

