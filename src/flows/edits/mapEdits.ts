import type { Edit, ModelProfile } from '../../contract';
import { l10n } from '../../l10n/l10n';
import type { EditsFile, FileEdit } from './editsFile';
import { binBounds, partFeatures, profileParts, valueBins, type ProfilePart, type ValueBins } from './profileParts';

/** One edit of a file put on a target version's bins. */
export interface MappedEdit {
  /** The edit's place in the file, from 0. */
  index: number;
  edit: FileEdit;
  /** The edits to send for it: one, or several when its bins are not neighbours there, or differ between its parts. Empty when it does not fit. */
  edits: Edit[];
  /** Why it does not fit the target; undefined when it fits. */
  problem?: string;
  /** What is different on the target though the edit fits (its bins there are not the ones it was made on). */
  notes: string[];
}

/** How a range of bins lands on one part of the target. */
type PartRange = { problem: string } | { ranges: [number, number][]; notes: string[] };

/** Ops whose result on each bin does not depend on its neighbours, so a range may be split into several. */
const BIN_BY_BIN = new Set(['shift', 'set', 'reset']);
/** Ops over neighbouring bins in order; merge only needs the bins to be neighbours. */
const IN_ORDER = new Set(['interpolate', 'monotone']);
const MAX_LISTED = 12;

/**
 * Puts each edit of `file` on the bins of `target` (the profile of the version it is applied to; `targetName`, such as
 * `v4`, names it in problems): a range given by value lands on the bins with the same bounds (numeric) or categories,
 * whatever their indexes there. An edit whose feature, partition, class, bounds or categories the target lacks does
 * not fit, with the reason; one that fits on bins other than those it was made on says so in `notes`.
 */
export function mapEdits(file: EditsFile, target: ModelProfile, targetName: string): MappedEdit[] {
  const parts = profileParts(target);
  return file.edits.map((edit, index) => ({ index, edit, ...mapEdit(edit, parts, target, targetName) }));
}

function mapEdit(edit: FileEdit, parts: ProfilePart[], target: ModelProfile, targetName: string): Pick<MappedEdit, 'edits' | 'problem' | 'notes'> {
  const noFit = (problem: string) => ({ edits: [], problem, notes: [] });
  const classes = target.model_type === 'multiclass_classification' ? target.classes : null;
  const partitions = [...new Set(parts.map((p) => p.partition))];
  if (edit.class !== undefined && !classes) return noFit(l10n.t('{0} is not multiclass, so it has no class {1}', targetName, edit.class));
  if (edit.class !== undefined && classes && !classes.includes(edit.class)) {
    return noFit(l10n.t('{0} has no class {1}; its classes are {2}', targetName, edit.class, listed(classes)));
  }
  if (edit.partition !== undefined && !partitions.includes(edit.partition)) {
    return noFit(l10n.t('{0} has no partition {1}; its partitions are {2}', targetName, edit.partition, listed(partitions)));
  }
  const named = parts.filter((p) => (edit.partition === undefined || p.partition === edit.partition) && (edit.class === undefined || p.class === edit.class));
  const touched = named.filter((p) => valueBins(p, edit.feature));
  if (touched.length === 0) {
    const features = partFeatures(named[0] ?? parts[0]);
    const missing = l10n.t('{0} has no feature {1}{2}', targetName, edit.feature, scope(edit.partition, edit.class ?? null));
    return noFit(features.length ? l10n.t('{0}; its features are {1}', missing, listed(features)) : missing);
  }
  const base = wireEdit(edit);
  if (!Array.isArray(edit.bins)) return { edits: [base], notes: [] };
  if (!edit.bounds && !edit.categories) {
    return { edits: [base], notes: [l10n.t('the file gives no values for its bins, so it changes bins [{0}, {1}] of {2} by position', edit.bins[0], edit.bins[1], targetName)] };
  }
  // The service takes one edit over several parts only when the feature has the same bins in each; else one per part.
  const found = touched.map((part) => ({ part, bins: valueBins(part, edit.feature) as ValueBins }));
  const keys = found.map(({ bins }) => JSON.stringify(bins.kind === 'numeric' ? bins.bins.map(binBounds) : bins.bins.map((b) => b.category)));
  const sameBins = keys.every((key) => key === keys[0]);
  const edits: Edit[] = [];
  const notes = new Set<string>();
  for (const { part, bins } of sameBins ? found.slice(0, 1) : found) {
    const where = sameBins ? '' : scope(partitions.length > 1 ? part.partition : undefined, part.class);
    const range = rangeIn(edit, bins, targetName);
    if ('problem' in range) return noFit(`${range.problem}${where}`);
    for (const note of range.notes) notes.add(`${note}${where}`);
    const own = sameBins ? {} : { ...(partitions.length > 1 ? { partition: part.partition } : {}), ...(part.class !== null ? { class: part.class } : {}) };
    edits.push(...range.ranges.map((r) => ({ ...base, bins: r, ...own })));
  }
  return { edits, notes: [...notes] };
}

/** The edit as the service takes it: without what the file adds. */
function wireEdit(edit: FileEdit): Edit {
  const { feature, op, bins, value, direction, class: cls, partition } = edit;
  return {
    feature,
    op,
    ...(bins !== undefined ? { bins } : {}),
    ...(value !== undefined ? { value } : {}),
    ...(direction !== undefined ? { direction } : {}),
    ...(cls !== undefined ? { class: cls } : {}),
    ...(partition !== undefined ? { partition } : {}),
  };
}

function rangeIn(edit: FileEdit, found: ValueBins, targetName: string): PartRange {
  if (edit.bounds) {
    if (found.kind !== 'numeric') return { problem: l10n.t('{0} is categorical in {1}, and the edit was made on numeric bins', edit.feature, targetName) };
    return numericRange(edit.feature, edit.bounds, found.bins.map(binBounds), targetName);
  }
  if (found.kind !== 'categorical') return { problem: l10n.t('{0} is numeric in {1}, and the edit was made on categories', edit.feature, targetName) };
  return categoricalRange(edit, edit.categories as string[], found.bins.map((b) => b.category ?? ''), targetName);
}

type Bounds = [number | null, number | null];

/** The bins from the one starting at the range's lower bound to the one ending at its upper bound. */
function numericRange(feature: string, bounds: Bounds[], bins: Bounds[], targetName: string): PartRange {
  const lower = bounds[0][0];
  const upper = bounds[bounds.length - 1][1];
  const first = bins.findIndex(([l]) => l === lower);
  const last = bins.findIndex(([, u]) => u === upper);
  const edges = [...new Set(bins.flatMap(([l, u]) => [l, u]).filter((e): e is number => e !== null))];
  if (first < 0) return { problem: l10n.t('{0} has no bin of {1} starting at {2}{3}', targetName, feature, bound(lower, 'lower'), nearest(lower, edges)) };
  if (last < 0) return { problem: l10n.t('{0} has no bin of {1} ending at {2}{3}', targetName, feature, bound(upper, 'upper'), nearest(upper, edges)) };
  const there = bins.slice(first, last + 1);
  const same = there.length === bounds.length && there.every(([l, u], i) => l === bounds[i][0] && u === bounds[i][1]);
  const notes = same
    ? []
    : [l10n.t('{0} has {1} bins of {2} from {3} to {4}, not the {5} it was made on: it covers the same values', targetName, there.length, feature, bound(lower, 'lower'), bound(upper, 'upper'), bounds.length)];
  return { ranges: [[first, last]], notes };
}

/** The categories' bins: one range when they are neighbours in the same order, else (bin by bin ops) one per run. */
function categoricalRange(edit: FileEdit, categories: string[], bins: string[], targetName: string): PartRange {
  const indexes = categories.map((c) => bins.indexOf(c));
  const lacking = categories.filter((_, i) => indexes[i] < 0);
  if (lacking.length) return { problem: l10n.t('{0} has no category {1} of {2}', targetName, listed(lacking), edit.feature) };
  const inOrder = indexes.every((k, i) => k === indexes[0] + i);
  if (inOrder) return { ranges: [[indexes[0], indexes[indexes.length - 1]]], notes: [] };
  const sorted = [...indexes].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const k of sorted) {
    const run = runs[runs.length - 1];
    if (run && k === run[1] + 1) run[1] = k;
    else runs.push([k, k]);
  }
  const order = sorted.map((k) => bins[k]).join(', ');
  if (IN_ORDER.has(edit.op)) {
    return { problem: l10n.t('{0} lists the categories of {1} as {2}, and {3} needs them as neighbours in the order it was made on', targetName, edit.feature, order, edit.op) };
  }
  if (!BIN_BY_BIN.has(edit.op) && runs.length > 1) {
    return { problem: l10n.t('{0} lists the categories of {1} as {2}, and {3} needs them as neighbours', targetName, edit.feature, order, edit.op) };
  }
  const notes = runs.length > 1 ? [l10n.t('{0} lists the categories of {1} as {2}, so the edit is sent as {3} ranges', targetName, edit.feature, order, runs.length)] : [];
  return { ranges: runs, notes };
}

/** A bound as people read it: −∞ and +∞ for the open ends. */
export function bound(value: number | null, side: 'lower' | 'upper'): string {
  return value === null ? (side === 'lower' ? '−∞' : '+∞') : String(value);
}

/** `(the nearest bounds there are 56 and 61.5)`: the target's bin edges on either side of a bound it lacks. */
function nearest(value: number | null, edges: number[]): string {
  if (value === null || edges.length === 0) return '';
  const below = edges.filter((e) => e < value);
  const above = edges.filter((e) => e > value);
  const around = [below.length ? Math.max(...below) : undefined, above.length ? Math.min(...above) : undefined].filter((e) => e !== undefined);
  return around.length === 2
    ? l10n.t(' (the nearest bounds there are {0} and {1})', around[0], around[1])
    : l10n.t(' (the nearest bound there is {0})', around[0] as number);
}

export function scope(partition: string | undefined, cls: string | null): string {
  const inPartition = partition === undefined ? '' : l10n.t(' in partition {0}', partition);
  return cls === null ? inPartition : `${inPartition}${l10n.t(' for class {0}', cls)}`;
}

function listed(names: readonly string[]): string {
  const shown = names.slice(0, MAX_LISTED).join(', ');
  return names.length > MAX_LISTED ? l10n.t('{0} and {1} more', shown, names.length - MAX_LISTED) : shown;
}
