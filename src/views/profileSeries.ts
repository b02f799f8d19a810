/** Turns a model profile into what the profile panel draws (pure: no DOM, no vscode). */
import type { CategoricalBin, FeatureImportance, NumericBin, PartitionProfile } from '../contract/models';
import { bandRange } from './band';
import { formatNumber } from './format';

export interface MissingBin {
  score: number;
  /** The standard error of the score across the bags (`score_std`; 0 without bags). */
  std: number;
  freq: number;
  mean: number | null;
}

export interface StepPoint {
  x: number;
  y: number;
}

export interface NumericBinView {
  lower: number | null;
  upper: number | null;
  label: string;
  score: number;
  std: number;
  freq: number;
  mean: number | null;
}

export interface NumericFeatureSeries {
  kind: 'numeric';
  feature: string;
  bins: NumericBinView[];
  /** Step points (draw with "step before"): one per bin at its lower edge, then the last upper edge. */
  scoreSteps: StepPoint[];
  /** The same steps with the bin frequency (0–1). */
  freqSteps: StepPoint[];
  /** The drawn x range; open bounds reach a tenth of the finite range beyond the outer edges ([0, 1] with none). */
  domain: [number, number];
  missing: MissingBin | null;
}

export interface CategoryFeatureSeries {
  kind: 'categorical';
  feature: string;
  categories: { category: string; score: number; std: number; freq: number; mean: number | null }[];
  missing: MissingBin | null;
}

export type FeatureSeries = NumericFeatureSeries | CategoryFeatureSeries;

function isMissingNumeric(bin: NumericBin): boolean {
  return bin.missing === true || (bin.lower === undefined && bin.upper === undefined);
}

function isMissingCategory(bin: CategoricalBin): boolean {
  return bin.missing === true || bin.category === null;
}

function toMissing(bin: NumericBin | CategoricalBin | undefined): MissingBin | null {
  return bin ? { score: bin.score, std: bin.score_std ?? 0, freq: bin.freq, mean: bin.mean } : null;
}

/** "< 3.5", "3.5 to 7", "≥ 7" or "any value" for a bin's bounds (null = open), each bound written by `format`. */
export function binLabel(lower: number | null, upper: number | null, format: (value: number) => string = formatNumber): string {
  if (lower === null && upper === null) return 'any value';
  if (lower === null) return `< ${format(upper as number)}`;
  if (upper === null) return `≥ ${format(lower)}`;
  return `${format(lower)} to ${format(upper)}`;
}

function finiteOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function numericSeries(feature: string, allBins: readonly NumericBin[]): NumericFeatureSeries {
  const missing = toMissing(allBins.find(isMissingNumeric));
  const bins: NumericBinView[] = allBins
    .filter((bin) => !isMissingNumeric(bin))
    .map((bin) => {
      const lower = finiteOrNull(bin.lower);
      const upper = finiteOrNull(bin.upper);
      return { lower, upper, label: binLabel(lower, upper), score: bin.score, std: bin.score_std ?? 0, freq: bin.freq, mean: bin.mean };
    });
  const edges = bins.flatMap((bin) => [bin.lower, bin.upper]).filter((edge): edge is number => edge !== null);
  const low = Math.min(...edges);
  const high = Math.max(...edges);
  const pad = high > low ? (high - low) / 10 : Math.max(Math.abs(low) / 10, 1);
  const domain: [number, number] = edges.length
    ? [low - (bins[0]?.lower === null ? pad : 0), high + (bins.at(-1)?.upper === null ? pad : 0)]
    : [0, 1];

  const scoreSteps: StepPoint[] = [];
  const freqSteps: StepPoint[] = [];
  bins.forEach((bin, index) => {
    const x = index === 0 ? domain[0] : (bin.lower ?? bins[index - 1].upper ?? domain[0]);
    scoreSteps.push({ x, y: bin.score });
    freqSteps.push({ x, y: bin.freq });
  });
  const last = bins.at(-1);
  if (last) {
    scoreSteps.push({ x: domain[1], y: last.score });
    freqSteps.push({ x: domain[1], y: last.freq });
  }
  return { kind: 'numeric', feature, bins, scoreSteps, freqSteps, domain, missing };
}

export function categorySeries(feature: string, allBins: readonly CategoricalBin[]): CategoryFeatureSeries {
  const missing = toMissing(allBins.find(isMissingCategory));
  const categories = allBins
    .filter((bin) => !isMissingCategory(bin))
    .map((bin) => ({ category: bin.category ?? '', score: bin.score, std: bin.score_std ?? 0, freq: bin.freq, mean: bin.mean }));
  return { kind: 'categorical', feature, categories, missing };
}

/** The steps of a series with their spread: its bins, then the missing-value bin. */
export function stepsOf(series: FeatureSeries): { score: number; std: number }[] {
  return [...(series.kind === 'numeric' ? series.bins : series.categories), ...(series.missing ? [series.missing] : [])];
}

/** Whether any step of the series has a band (a model fitted in bags). */
export function hasBand(series: FeatureSeries): boolean {
  return stepsOf(series).some((step) => step.std > 0);
}

/** A numeric series' band as two step lines (the points of `scoreSteps`, 2 standard errors below and above). */
export function bandSteps(series: NumericFeatureSeries): { low: StepPoint[]; high: StepPoint[] } {
  const stdAt = (i: number) => series.bins[Math.min(i, series.bins.length - 1)].std;
  const ends = series.scoreSteps.map((p, i) => bandRange(p.y, stdAt(i)));
  return {
    low: series.scoreSteps.map((p, i) => ({ x: p.x, y: ends[i][0] })),
    high: series.scoreSteps.map((p, i) => ({ x: p.x, y: ends[i][1] })),
  };
}

/** The series of one feature of a partition's profile, or undefined when the partition lacks it. */
export function featureSeries(partition: PartitionProfile, feature: string): FeatureSeries | undefined {
  const numeric = partition.numeric[feature];
  if (numeric) return numericSeries(feature, numeric);
  const categorical = partition.categorical[feature];
  if (categorical) return categorySeries(feature, categorical);
  return undefined;
}

export interface SharedScales {
  /** The x range covering every numeric series (undefined when one is categorical). */
  domain?: [number, number];
  /** The contribution range covering every series, its band, the missing bins and 0. */
  score: [number, number];
}

/** Common scales for charts of the same feature drawn side by side (e.g. before and after a refit). */
export function sharedScales(all: readonly FeatureSeries[]): SharedScales {
  const scores = [0, ...all.flatMap((series) => stepsOf(series).flatMap((step) => bandRange(step.score, step.std)))];
  const score: [number, number] = [Math.min(...scores), Math.max(...scores)];
  const numeric = all.filter((series): series is NumericFeatureSeries => series.kind === 'numeric');
  if (numeric.length !== all.length || !numeric.length) return { score };
  return {
    domain: [Math.min(...numeric.map((n) => n.domain[0])), Math.max(...numeric.map((n) => n.domain[1]))],
    score,
  };
}

export type FeatureSort = 'importance' | 'name';

/**
 * The features to list: every feature of the partition's profile (importance 0 when the importances omit it),
 * filtered by a case-insensitive substring and sorted by importance (descending) or name.
 */
export function listFeatures(partition: PartitionProfile, query: string, sort: FeatureSort): FeatureImportance[] {
  const importance = new Map(partition.feature_importances.map((f) => [f.feature, f.importance]));
  const names = new Set([...importance.keys(), ...Object.keys(partition.numeric), ...Object.keys(partition.categorical)]);
  const needle = query.trim().toLowerCase();
  const rows = [...names]
    .filter((name) => name.toLowerCase().includes(needle))
    .map((feature) => ({ feature, importance: importance.get(feature) ?? 0 }));
  return rows.sort(listOrder(sort));
}

/** The order of the feature list: by name, or by importance (descending) with ties by name. */
export function listOrder(sort: FeatureSort): (a: FeatureImportance, b: FeatureImportance) => number {
  return sort === 'name' ? (a, b) => a.feature.localeCompare(b.feature) : (a, b) => b.importance - a.importance || byCaselessName(a, b);
}

/** Ties of importance by name, ignoring case, without localeCompare: a page's first one costs over 10 ms. */
function byCaselessName(a: FeatureImportance, b: FeatureImportance): number {
  const [x, y] = [a.feature.toLowerCase(), b.feature.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The partition to show: the requested one when the profile has it, else the whole-data one, else the first. */
export function pickPartition(partitions: readonly PartitionProfile[], wanted?: string): PartitionProfile | undefined {
  return (
    partitions.find((p) => p.partition === wanted) ??
    partitions.find((p) => p.partition === '__dataset__') ??
    partitions[0]
  );
}
