/** Turns a DatasetSummary into the dataset summary panel's table rows and sparklines (pure). */
import type { DatasetSummary, Recommendation, SampleValue } from '../contract/autotrain';
import type { PreprocessorStep } from '../contract/datasets';

/**
 * A column's sparkline. `range`: where the mean and ±1 std sit between min and max (all 0–1 along the line).
 * `share`: distinct values and missing values as shares of the rows.
 */
export type Sparkline =
  | { kind: 'range'; mean: number; bandLow: number; bandHigh: number; description: string }
  | { kind: 'share'; distinct: number; missing: number; description: string };

export interface SummaryRow {
  column: string;
  dtype: string;
  semanticType: string;
  description: string;
  distinct: number;
  missing: number;
  missingShare: number;
  min?: number | string;
  max?: number | string;
  mean?: number;
  std?: number;
  samples: SampleValue[];
  sparkline: Sparkline;
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

export function sparkline(
  properties: { min?: number | string; max?: number | string; mean?: number; std?: number; num_unique_values: number },
  rows: number,
  missing: number,
): Sparkline {
  const { min, max, mean, std } = properties;
  if (typeof min === 'number' && typeof max === 'number' && typeof mean === 'number' && max > min) {
    const at = (v: number) => clamp01((v - min) / (max - min));
    const spread = typeof std === 'number' && Number.isFinite(std) ? std : 0;
    return {
      kind: 'range',
      mean: at(mean),
      bandLow: at(mean - spread),
      bandHigh: at(mean + spread),
      description: `Values from ${min} to ${max}; mean ${Number(mean.toPrecision(4))}`,
    };
  }
  const distinct = rows > 0 ? clamp01(properties.num_unique_values / rows) : 0;
  const missingShare = rows > 0 ? clamp01(missing / rows) : 0;
  return {
    kind: 'share',
    distinct,
    missing: missingShare,
    description: `${properties.num_unique_values} distinct values; ${missing} missing`,
  };
}

/** One row per summarised column, in the summary's order. */
export function summaryRows(summary: DatasetSummary): SummaryRow[] {
  return summary.fields.map(({ column, properties }) => {
    const missing = summary.missing_values[column] ?? 0;
    return {
      column,
      dtype: properties.dtype,
      semanticType: properties.semantic_type,
      description: properties.description,
      distinct: properties.num_unique_values,
      missing,
      missingShare: summary.rows > 0 ? missing / summary.rows : 0,
      min: properties.min,
      max: properties.max,
      mean: properties.mean,
      std: properties.std,
      samples: properties.samples,
      sparkline: sparkline(properties, summary.rows, missing),
    };
  });
}

/** The preprocessor steps of the chosen recommendations, in the recommendations' order. */
export function recommendationSteps(
  recommendations: readonly Recommendation[],
  chosen: ReadonlySet<number>,
): PreprocessorStep[] {
  return recommendations.filter((r) => chosen.has(r.index)).map((r) => r.step);
}
