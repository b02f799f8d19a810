/** The axes of a feature's chart, the same in the profile panel and the model report (pure). */
import { niceTicks, ticksWithin, type AxisTicks } from './axisTicks';
import { sharedScales, type FeatureSeries, type NumericFeatureSeries, type SharedScales } from './profileSeries';

/**
 * The contribution axis: it covers every step of `series`, of `fitted` (drawn faded behind an edited series), their
 * missing-value bins, 0, and the scales the chart shares with one beside it.
 */
export function contributionTicks(series: FeatureSeries, fitted?: FeatureSeries, scales?: SharedScales): AxisTicks {
  const [low, high] = sharedScales(fitted ? [series, fitted] : [series]).score;
  return niceTicks(Math.min(low, scales?.score[0] ?? low), Math.max(high, scales?.score[1] ?? high));
}

/** The drawn x range of a numeric feature: its own, or the one it shares with a chart beside it. */
export function valueDomain(series: NumericFeatureSeries, scales?: SharedScales): [number, number] {
  return scales?.domain ?? series.domain;
}

/** The value axis' ticks of a numeric feature; none when no bin has a finite edge (its range would be made up). */
export function valueTicks(series: NumericFeatureSeries, scales?: SharedScales): number[] {
  return series.bins.some((bin) => bin.lower !== null || bin.upper !== null) ? ticksWithin(valueDomain(series, scales)) : [];
}
