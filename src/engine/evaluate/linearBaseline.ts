import type { DataFrame } from '../data/frame';
import { fitLinearTerms, sigmoid, type LinearFamily } from '../linear/linearTerms';
import type { ModelType } from '../model/types';

export interface LinearBaseline {
  /** Regressor: the predicted value; classifier: the probability of the positive class (code 1). */
  predict(frame: DataFrame): Float64Array;
}

/**
 * The linear yardstick a transparent model is compared with (fitLinearTerms), predicting values or probabilities;
 * with a family, a GLM or a robust linear fit whose `predict` takes each target row's offset (log exposure).
 */
export function fitLinearBaseline(frame: DataFrame, features: readonly string[], y: Float64Array, modelType: ModelType, family: LinearFamily | null = null): LinearBaseline & { predictWith?: (target: DataFrame, offset: Float64Array | null) => Float64Array } {
  const terms = fitLinearTerms(frame, features, y, modelType, family);
  const scores = (target: DataFrame) => {
    const out = new Float64Array(target.nRows).fill(terms.intercept);
    for (const c of terms.contributions(target).values()) for (let i = 0; i < out.length; i++) out[i] += c[i];
    return out;
  };
  return {
    predict(target: DataFrame): Float64Array {
      const out = scores(target);
      if (family?.link === 'log') return out.map(Math.exp);
      return modelType === 'regressor' ? out : out.map(sigmoid);
    },
    predictWith(target: DataFrame, offset: Float64Array | null): Float64Array {
      const out = scores(target);
      return family?.link === 'log' ? out.map((s, i) => Math.exp(s + (offset ? offset[i] : 0))) : out;
    },
  };
}

