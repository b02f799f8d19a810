/** Hand edits in words, for the panel's list of edits and what screen readers announce (pure). */
import type { Edit } from '../contract/edits';
import { MISSING_BIN } from '../engine/model/edits';
import { BAND_TEXT, insideBand } from './band';
import { formatNumber, partitionLabel } from './format';
import { hasBand, stepsOf, type FeatureSeries } from './profileSeries';

/** The bins an edit names, by their labels in the chart ("bins 30 to 50 … ≥ 60"); indexes when the labels are not known. */
export function binsText(bins: Edit['bins'], labels: readonly string[]): string {
  if (bins === undefined) return 'every bin';
  if (bins === MISSING_BIN) return 'the missing-value bin';
  const [first, last] = bins.map((i) => labels[i] ?? `#${i + 1}`);
  return bins[0] === bins[1] ? `bin ${first}` : `bins ${first} … ${last}`;
}

function signed(value: number | undefined): string {
  return `${(value ?? 0) >= 0 ? '+' : ''}${formatNumber(value)}`;
}

/** "Merge bins 30 to 50 … ≥ 60 of age (class setosa, partition north)". */
export function describeEdit(edit: Edit, labels: readonly string[]): string {
  const bins = `${binsText(edit.bins, labels)} of ${edit.feature}`;
  const scope = [edit.class !== undefined ? `class ${edit.class}` : '', edit.partition !== undefined ? `partition ${partitionLabel(edit.partition)}` : '']
    .filter(Boolean)
    .join(', ');
  const text = {
    shift: `Shift ${bins} by ${signed(edit.value)}`,
    set: `Set ${bins} to ${formatNumber(edit.value)}`,
    interpolate: `Interpolate ${bins}`,
    merge: `Merge ${bins} into one step`,
    monotone: `Make ${bins} never ${edit.direction === -1 ? 'increasing' : 'decreasing'}`,
    reset: `Reset ${bins}`,
    remove: `Remove ${edit.feature}`,
  }[edit.op];
  return scope ? `${text} (${scope})` : text;
}

/**
 * Whether edited steps stay inside the fitted band, in words for the edit's outcome: undefined when the fitted
 * steps have no band (a model fitted without bags) or no step changed.
 */
export function bandVerdict(fitted: FeatureSeries, edited: FeatureSeries): string | undefined {
  if (!hasBand(fitted)) return undefined;
  const before = stepsOf(fitted);
  const after = stepsOf(edited);
  // For each changed step: whether its new score lies inside the fitted step's band.
  const changed = before.flatMap((step, i) => (after[i] !== undefined && after[i].score !== step.score ? [insideBand(after[i].score, step.score, step.std)] : []));
  if (!changed.length) return undefined;
  const outside = changed.filter((inside) => !inside).length;
  const steps = changed.length === 1 ? 'The edited step stays' : `All ${changed.length} edited steps stay`;
  if (outside === 0) return `${steps} inside the fitted band (${BAND_TEXT}): the data cannot tell the edit from the fitted steps.`;
  return `${outside} of ${changed.length} edited step${changed.length === 1 ? '' : 's'} leave the fitted band (${BAND_TEXT}): the edit goes beyond what the data supports there.`;
}
