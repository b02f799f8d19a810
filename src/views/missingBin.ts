/** A feature's missing-value bin as a bar beside its chart (pure). */
import { sharedScales, type FeatureSeries, type MissingBin } from './profileSeries';
import { toneOf, type Tone } from './pairHeatmap';

export interface MissingBar extends MissingBin {
  /** The track's ends: the feature's contribution range over all its bins, the missing one and 0. */
  low: number;
  high: number;
  /** Where 0 and the bar's two ends sit on the track, as fractions (0 the left end, 1 the right). */
  zero: number;
  from: number;
  to: number;
  tone: Tone;
}

/** The missing-value bin drawn on the feature's own contribution range; null when no training row was missing. */
export function missingBar(series: FeatureSeries): MissingBar | null {
  const missing = series.missing;
  if (!missing || missing.freq === 0) return null;
  const [low, high] = sharedScales([series]).score;
  const at = (value: number) => (high > low ? (value - low) / (high - low) : 0);
  return {
    ...missing,
    low,
    high,
    zero: at(0),
    from: at(Math.min(0, missing.score)),
    to: at(Math.max(0, missing.score)),
    tone: toneOf(missing.score),
  };
}
