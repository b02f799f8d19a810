/** Hand edits in words, for the panel's list of edits and what screen readers announce (pure). */
import type { Edit } from '../contract/edits';
import { MISSING_BIN } from '../engine/model/edits';
import { formatNumber, partitionLabel } from './format';

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
