import type { NumericStats } from './types';

/** The refit cache of a numeric feature that has none (a boosted feature, or one read from a model without it). */
export function emptyNumericStats(): NumericStats {
  return { splits: new Float64Array(0), leftCounts: new Float64Array(0), leftSums: new Float64Array(0), totalCount: 0, totalSum: 0 };
}
