/**
 * What the comparison of two versions of a model shows (pure: no DOM, no vscode): the features ranked by how much
 * their steps moved, both versions' steps of a feature on shared scales, and their test metrics side by side.
 */
import type { AppliedEdit } from '../contract/edits';
import type { CategoricalBin, Metrics, ModelProfile, NumericBin, PartitionProfile } from '../contract/models';
import { insideBand } from './band';
import { featureSeries, sharedScales, type FeatureSeries, type SharedScales } from './profileSeries';

// ---- the parts compared: a partition, and per class for a multiclass model ----

export interface ComparedPart {
  partition: string;
  /** Multiclass: the class whose one-vs-rest model this is. */
  class?: string;
  profile: PartitionProfile;
}

/** Every partition (each class of it, for a multiclass model) of a version's profile. */
export function comparedParts(profile: ModelProfile): ComparedPart[] {
  if (profile.model_type !== 'multiclass_classification') {
    return profile.partitions.map((p) => ({ partition: p.partition, profile: p }));
  }
  return profile.partitions.flatMap((p) =>
    p.per_class.map(({ class: cls, ...rest }) => ({ partition: p.partition, class: cls, profile: { partition: p.partition, ...rest } })),
  );
}

/** The part of a version for a partition and class, if it has one. */
export function findPart(parts: readonly ComparedPart[], partition: string, cls?: string): ComparedPart | undefined {
  return parts.find((p) => p.partition === partition && p.class === cls);
}

/** The partitions and classes both versions have, in the newer version's order: what the pickers offer. */
export function commonChoices(newer: readonly ComparedPart[], older: readonly ComparedPart[]): { partitions: string[]; classes: string[] } {
  const shared = newer.filter((p) => findPart(older, p.partition, p.class));
  const unique = (values: (string | undefined)[]) => [...new Set(values.filter((v): v is string => v !== undefined))];
  return { partitions: unique(shared.map((p) => p.partition)), classes: unique(shared.map((p) => p.class)) };
}

// ---- how far a feature's steps moved ----

interface WeightedDifference {
  weight: number;
  difference: number;
  /** The step moved beyond one version's band or both (see `distinguishable`). */
  distinguishable: boolean;
  /** Either version's step has a band (a model fitted in bags). */
  banded: boolean;
}

type Step = { score: number; std: number; freq: number };

/**
 * Whether a step's change can be told from the bags' noise: it cannot when each version's score lies inside the
 * other's band (a step a version lacks is 0 without a band, so any change of it can).
 */
export function distinguishable(a: Pick<Step, 'score' | 'std'> | undefined, b: Pick<Step, 'score' | 'std'> | undefined): boolean {
  const [x, y] = [a ?? { score: 0, std: 0 }, b ?? { score: 0, std: 0 }];
  return !(insideBand(x.score, y.score, y.std) && insideBand(y.score, x.score, x.std));
}

function compared(weight: number, a: Step | undefined, b: Step | undefined): WeightedDifference {
  return {
    weight,
    difference: Math.abs((a?.score ?? 0) - (b?.score ?? 0)),
    distinguishable: distinguishable(a, b),
    banded: (a?.std ?? 0) > 0 || (b?.std ?? 0) > 0,
  };
}

function isMissingNumeric(bin: NumericBin): boolean {
  return bin.missing === true || (bin.lower === undefined && bin.upper === undefined);
}

const bound = (value: number | null | undefined): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/**
 * The cells of the common grid: every finite bound of either version's bins cuts the line, so each cell lies in
 * exactly one bin of each version. A bin's frequency is shared equally among the cells it spans.
 */
function numericCells(newer: readonly NumericBin[] | undefined, older: readonly NumericBin[] | undefined): WeightedDifference[] {
  const versions = [newer, older].map((bins) => (bins ?? []).filter((b) => !isMissingNumeric(b)).map((b) => ({ lower: bound(b.lower), upper: bound(b.upper), score: b.score, std: b.score_std ?? 0, freq: b.freq })));
  const cuts = [...new Set(versions.flat().flatMap((b) => [b.lower, b.upper]).filter((c): c is number => c !== null))].sort((a, b) => a - b);
  const edges = [-Infinity, ...cuts, Infinity];
  const cells = edges.slice(1).map((high, i) => ({ low: edges[i], high }));
  const present = versions.filter((bins) => bins.length > 0).length;
  const binOf = (bins: (typeof versions)[number], cell: { low: number; high: number }) =>
    bins.find((b) => (b.lower ?? -Infinity) <= cell.low && (b.upper ?? Infinity) >= cell.high);
  const spans = versions.map((bins) => bins.map((bin) => cells.filter((cell) => binOf(bins, cell) === bin).length));
  return cells.flatMap((cell) => {
    const [a, b] = versions.map((bins) => binOf(bins, cell));
    const share = versions.reduce((sum, bins, v) => {
      const bin = binOf(bins, cell);
      return bin ? sum + bin.freq / Math.max(1, spans[v][bins.indexOf(bin)]) : sum;
    }, 0);
    if (!a && !b) return [];
    return [compared(share / Math.max(1, present), a, b)];
  });
}

/** Steps matched by key (a category, or the missing-value bin); a step a version lacks counts as 0. */
function matchedSteps(newer: ReadonlyMap<string, Step> | undefined, older: ReadonlyMap<string, Step> | undefined): WeightedDifference[] {
  const present = [newer, older].filter((steps) => steps && steps.size > 0).length;
  const keys = new Set([...(newer?.keys() ?? []), ...(older?.keys() ?? [])]);
  return [...keys].map((key) => {
    const [a, b] = [newer?.get(key), older?.get(key)];
    return compared(((a?.freq ?? 0) + (b?.freq ?? 0)) / Math.max(1, present), a, b);
  });
}

const MISSING_KEY = '\u0000missing';

function categorySteps(bins: readonly CategoricalBin[] | undefined): Map<string, Step> | undefined {
  return bins && new Map(bins.map((b) => [b.missing === true || b.category === null ? MISSING_KEY : `=${b.category}`, { score: b.score, std: b.score_std ?? 0, freq: b.freq }]));
}

function missingStep(bins: readonly NumericBin[] | undefined): Map<string, Step> | undefined {
  const missing = bins?.find(isMissingNumeric);
  return bins && new Map(missing ? [[MISSING_KEY, { score: missing.score, std: missing.score_std ?? 0, freq: missing.freq }]] : []);
}

function weightedMean(cells: readonly WeightedDifference[]): number {
  const weight = cells.reduce((sum, c) => sum + c.weight, 0);
  if (weight > 0) return cells.reduce((sum, c) => sum + c.weight * c.difference, 0) / weight;
  return cells.length ? cells.reduce((sum, c) => sum + c.difference, 0) / cells.length : 0;
}

/**
 * The frequency-weighted mean absolute difference of a feature's two step functions: numeric steps on the common
 * grid of both versions' bin bounds (with the missing-value bin as one more cell), categorical steps per category.
 * A feature one version lacks is compared with steps of 0.
 */
export function stepDifference(newer: PartitionProfile, older: PartitionProfile, feature: string): number {
  return weightedMean(comparedSteps(newer, older, feature));
}

/** A feature's steps of both versions matched: numeric on the common grid, then the missing-value bin; or per category. */
function comparedSteps(newer: PartitionProfile, older: PartitionProfile, feature: string): WeightedDifference[] {
  const numeric = newer.numeric[feature] ?? older.numeric[feature];
  if (numeric) {
    const [a, b] = [newer.numeric[feature], older.numeric[feature]];
    return [...numericCells(a, b), ...matchedSteps(missingStep(a), missingStep(b))];
  }
  return matchedSteps(categorySteps(newer.categorical[feature]), categorySteps(older.categorical[feature]));
}

/** How many of a feature's matched steps moved, and how many of those moved beyond the bands (see `distinguishable`). */
export function movedSteps(newer: PartitionProfile, older: PartitionProfile, feature: string): Pick<FeatureChange, 'moved' | 'outside' | 'banded'> {
  const steps = comparedSteps(newer, older, feature);
  const moved = steps.filter((step) => step.difference > 0);
  return { moved: moved.length, outside: moved.filter((step) => step.distinguishable).length, banded: steps.some((step) => step.banded) };
}

/** The moved steps against the bands, for the ranking: "2 of 5 outside the bands"; empty without bands or moves. */
export function bandsText(change: Pick<FeatureChange, 'moved' | 'outside' | 'banded'>): string {
  if (!change.banded || change.moved === 0) return '';
  if (change.outside === 0) return `none of ${change.moved} outside the bands: not distinguishable`;
  return `${change.outside} of ${change.moved} outside the bands`;
}

export interface FeatureChange {
  feature: string;
  /** The frequency-weighted mean absolute difference of the steps (see `stepDifference`). */
  difference: number;
  newerImportance: number | null;
  olderImportance: number | null;
  /** How many of the newer version's hand edits name the feature (in this part). */
  edits: number;
  /** How many steps moved (numeric: cells of the common grid of both versions' bins, and the missing-value bin). */
  moved: number;
  /** How many of the moved steps lie outside either version's band: the others are not distinguishable from the bags' noise. */
  outside: number;
  /** Either version has bands for the feature (fitted in bags); without, `outside` counts every moved step. */
  banded: boolean;
}

const importanceOf = (part: PartitionProfile, feature: string): number | null =>
  part.feature_importances.find((f) => f.feature === feature)?.importance ?? null;

const featuresOf = (part: PartitionProfile): string[] => [...Object.keys(part.numeric), ...Object.keys(part.categorical)];

/** Whether an edit applies to this partition and class (an edit without them applies to every one). */
function editApplies(edit: AppliedEdit, partition: string, cls: string | undefined): boolean {
  return (edit.partition === undefined || edit.partition === partition) && (edit.class === undefined || edit.class === cls);
}

/** Every feature of either version, those whose steps moved most first (ties by name). */
export function rankFeatureChanges(newer: ComparedPart, older: ComparedPart, edits: readonly AppliedEdit[] = []): FeatureChange[] {
  const features = [...new Set([...featuresOf(newer.profile), ...featuresOf(older.profile)])];
  return features
    .map((feature) => ({
      feature,
      difference: stepDifference(newer.profile, older.profile, feature),
      newerImportance: importanceOf(newer.profile, feature),
      olderImportance: importanceOf(older.profile, feature),
      edits: edits.filter((e) => e.feature === feature && editApplies(e, newer.partition, newer.class)).length,
      ...movedSteps(newer.profile, older.profile, feature),
    }))
    .sort((a, b) => b.difference - a.difference || (a.feature < b.feature ? -1 : a.feature > b.feature ? 1 : 0));
}

// ---- one feature of both versions, drawn over each other ----

export interface FeatureOverlay {
  feature: string;
  newer?: FeatureSeries;
  older?: FeatureSeries;
  /** Both versions' steps on one x range (numeric) and one contribution range. */
  scales: SharedScales;
  /** Categorical: every category of either version, the newer version's order first. */
  categories: string[];
  /** Categorical: each version's contribution per category of `categories` (null where the version lacks it). */
  newerScores: (number | null)[];
  olderScores: (number | null)[];
}

export function featureOverlay(newer: PartitionProfile, older: PartitionProfile, feature: string): FeatureOverlay {
  const [a, b] = [featureSeries(newer, feature), featureSeries(older, feature)];
  const present = [a, b].filter((s): s is FeatureSeries => s !== undefined);
  const categoriesOf = (s: FeatureSeries | undefined) => (s?.kind === 'categorical' ? s.categories : []);
  const categories = [...new Set([...categoriesOf(a), ...categoriesOf(b)].map((c) => c.category))];
  const scoresOn = (s: FeatureSeries | undefined) => categories.map((name) => categoriesOf(s).find((c) => c.category === name)?.score ?? null);
  return {
    feature,
    ...(a ? { newer: a } : {}),
    ...(b ? { older: b } : {}),
    scales: sharedScales(present),
    categories,
    newerScores: scoresOn(a),
    olderScores: scoresOn(b),
  };
}

// ---- test metrics side by side ----

const METRICS: readonly { key: string; label: string; higherIsBetter: boolean }[] = [
  { key: 'roc_auc', label: 'ROC AUC', higherIsBetter: true },
  { key: 'roc_auc_weighted', label: 'ROC AUC (weighted)', higherIsBetter: true },
  { key: 'accuracy', label: 'Accuracy', higherIsBetter: true },
  { key: 'f1', label: 'F1', higherIsBetter: true },
  { key: 'precision', label: 'Precision', higherIsBetter: true },
  { key: 'recall', label: 'Recall', higherIsBetter: true },
  { key: 'mcc', label: 'MCC', higherIsBetter: true },
  { key: 'log_loss', label: 'Log loss', higherIsBetter: false },
  { key: 'brier', label: 'Brier score', higherIsBetter: false },
  { key: 'r2', label: 'R²', higherIsBetter: true },
  { key: 'explained_variance', label: 'Explained variance', higherIsBetter: true },
  { key: 'rmse', label: 'RMSE', higherIsBetter: false },
  { key: 'mae', label: 'MAE', higherIsBetter: false },
  { key: 'mape', label: 'MAPE', higherIsBetter: false },
];

export interface MetricRow {
  metric: string;
  newer: number | null;
  older: number | null;
  /** newer − older, when both are known. */
  change: number | null;
  /** Which version scores better on this metric ('same' when equal; undefined when either is unknown). */
  better?: 'newer' | 'older' | 'same';
}

function metricValue(metrics: Metrics | null, key: string): number | null {
  const value = metrics ? (metrics as Record<string, unknown>)[key] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The scalar test metrics either version has, in a fixed order, with which version is better on each. */
export function metricRows(newer: Metrics | null, older: Metrics | null): MetricRow[] {
  const has = (metrics: Metrics | null, key: string) => metrics !== null && key in metrics;
  return METRICS.filter(({ key }) => has(newer, key) || has(older, key)).map(({ key, label, higherIsBetter }) => {
    const [a, b] = [metricValue(newer, key), metricValue(older, key)];
    if (a === null || b === null) return { metric: label, newer: a, older: b, change: null };
    const better = a === b ? 'same' : a > b === higherIsBetter ? 'newer' : 'older';
    return { metric: label, newer: a, older: b, change: a - b, better };
  });
}
