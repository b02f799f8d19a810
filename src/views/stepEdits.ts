/**
 * Hand edits of a feature's steps as the profile panel draws them before the service answers (pure): the same step
 * operations and re-centring the engine applies, on the profile's bins, so the chart follows every edit at once and
 * the preview's own steps then replace the estimate without a jump.
 */
import type { Edit } from '../contract/edits';
import type { CategoricalBin, NumericBin, PartitionProfile, PreviewPart } from '../contract/models';
import { centre } from '../engine/boost/assemble';
import { applyStepEdit, type LeafRange } from '../engine/fit/stepOps';
import { MISSING_BIN } from '../engine/model/edits';
import type { FitMethod } from '../engine/params/table';
import type { EditScope } from './classProfiles';
import { categorySeries, numericSeries, type FeatureSeries } from './profileSeries';


/** The fields that name the part of the version an edit changes: the partition when there are several, the class. */
export function scopeFields(scope: EditScope): Pick<Edit, 'partition' | 'class'> {
  return { ...(scope.namesPartition ? { partition: scope.partition } : {}), ...(scope.class !== undefined ? { class: scope.class } : {}) };
}

/** Whether an edit changes `feature` in the part of the version `scope` shows (an edit without partition or class changes every one). */
export function editApplies(edit: Edit, feature: string, scope: EditScope): boolean {
  return (
    edit.feature === feature &&
    (edit.partition === undefined || edit.partition === scope.partition) &&
    (edit.class === undefined || edit.class === scope.class)
  );
}

/** The leaves an edit's `bins` name among `m` non-missing bins and the missing-value bin after them. */
function leafRange(edit: Edit, m: number): LeafRange {
  if (edit.bins === MISSING_BIN) return [m, m + 1];
  if (edit.bins === undefined) return [0, edit.op === 'reset' ? m + 1 : m];
  return [edit.bins[0], edit.bins[1] + 1];
}

/**
 * The steps of a feature's bins (in profile order, the missing-value bin last) after the edits that change it in
 * `scope`, or null once an edit removed it. A `boosted` feature whose steps changed is re-centred on its bins'
 * frequencies, as the engine re-centres on their counts (the same steps: frequencies are counts over the rows).
 */
export function editedScores(
  bins: readonly { score: number; freq: number }[],
  edits: readonly Edit[],
  feature: string,
  scope: EditScope,
  method: FitMethod,
): number[] | null {
  const original = Float64Array.from(bins, (b) => b.score);
  const freq = Float64Array.from(bins, (b) => b.freq);
  const steps = original.slice();
  const m = bins.length - 1;
  for (const edit of edits) {
    if (!editApplies(edit, feature, scope)) continue;
    if (edit.op === 'remove') return null;
    applyStepEdit(edit, steps, original, freq, leafRange(edit, m));
  }
  const changed = steps.some((v, i) => !Object.is(v, original[i]));
  if (changed && method === 'boosted') centre(steps, freq);
  return Array.from(steps);
}

function seriesOf(feature: string, bins: readonly NumericBin[] | readonly CategoricalBin[], numeric: boolean): FeatureSeries {
  return numeric ? numericSeries(feature, bins as NumericBin[]) : categorySeries(feature, bins as CategoricalBin[]);
}

/** The edited series of a feature of a partition's profile: undefined when the partition lacks it, null once removed. */
export function editedSeries(partition: PartitionProfile, feature: string, edits: readonly Edit[], scope: EditScope, method: FitMethod): FeatureSeries | null | undefined {
  const numeric = partition.numeric[feature];
  const bins = numeric ?? partition.categorical[feature];
  if (!bins) return undefined;
  const scores = editedScores(bins, edits, feature, scope, method);
  if (!scores) return null;
  return seriesOf(feature, bins.map((bin, i) => ({ ...bin, score: scores[i] })) as NumericBin[] | CategoricalBin[], numeric !== undefined);
}

/**
 * A feature's series as a preview of edits gives it for the part `scope` shows: undefined when the preview has no
 * steps of it there (the edits left that part alone), null when they removed it.
 */
export function previewSeries(parts: readonly PreviewPart[], feature: string, scope: EditScope): FeatureSeries | null | undefined {
  const part = parts.find((p) => p.partition === scope.partition && p.class === scope.class);
  const bins = part?.features[feature];
  if (!bins) return undefined;
  if (!bins.length) return null;
  return seriesOf(feature, bins, !('category' in bins[0]));
}
