/** Turns a profile's pair terms into what the profile panel shows: entries of its feature list and heat maps (pure). */
import type { AxisBin, FeatureImportance, Interaction, PartitionProfile } from '../contract/models';
import { PLUS_MINUS_TEXT, plusMinus } from './band';
import { formatNumber, formatPercent, formatSignificant } from './format';
import { binLabel, listFeatures, listOrder, type FeatureSort } from './profileSeries';

/** How a pair reads in the feature list and the importance chart (as predict names its contributions). */
export function pairLabel(features: readonly [string, string]): string {
  return `${features[0]} × ${features[1]}`;
}

/** An entry of the feature list: a feature, or a pair term (`pair` set, `feature` its label). */
export interface ListedTerm extends FeatureImportance {
  pair?: [string, string];
}

/**
 * The features of `listFeatures` and the partition's pair terms among them, "a × b", ranked on the same importance
 * scale (features and pairs together sum to 1) or by name, filtered by the same substring.
 */
export function listTerms(partition: PartitionProfile, query: string, sort: FeatureSort): ListedTerm[] {
  const features: ListedTerm[] = listFeatures(partition, query, sort);
  const needle = query.trim().toLowerCase();
  const pairs = (partition.interactions ?? [])
    .map((p): ListedTerm => ({ feature: pairLabel(p.features), importance: p.importance, pair: p.features }))
    .filter((p) => p.feature.toLowerCase().includes(needle));
  return pairs.length ? [...features, ...pairs].sort(listOrder(sort)) : features;
}

/** The partition's pair term listed as `label`, if any. */
export function pairTerm(partition: PartitionProfile, label: string): Interaction | undefined {
  return partition.interactions?.find((p) => pairLabel(p.features) === label);
}

export const MISSING_LABEL = 'missing';

export interface AxisLabel {
  /** Short, for the heat map's headers: "< 30.1", "Paris, Lyon and 3 more", "missing". */
  label: string;
  /** Longer, for tooltips and the table (up to 30 categories). */
  full: string;
  missing: boolean;
}

function someOf(items: readonly string[], shown: number): string {
  if (items.length <= shown + 1) return items.join(', ');
  return `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`;
}

/** The fewest significant digits (3 to 6) that still tell every bound of an axis apart, for its short labels. */
function boundDigits(bins: readonly AxisBin[]): number {
  const bounds = new Set(bins.flatMap((bin) => ('lower' in bin ? [bin.lower, bin.upper] : [])).filter((v): v is number => v !== null));
  for (let digits = 3; digits < 6; digits++) {
    if (new Set([...bounds].map((v) => formatSignificant(v, digits))).size === bounds.size) return digits;
  }
  return 6;
}

/** An axis' bins as the heat map labels them: short in its headers, longer in tooltips and the table. */
export function axisLabels(bins: readonly AxisBin[]): AxisLabel[] {
  const digits = boundDigits(bins);
  return bins.map((bin) => {
    if ('missing' in bin) return { label: MISSING_LABEL, full: MISSING_LABEL, missing: true };
    if ('categories' in bin) return { label: someOf(bin.categories, 2), full: someOf(bin.categories, 30), missing: false };
    return { label: binLabel(bin.lower, bin.upper, (v) => formatSignificant(v, digits)), full: binLabel(bin.lower, bin.upper), missing: false };
  });
}

/** Which end of the diverging colour scale a cell takes: raising the score, lowering it, or neither. */
export type Tone = 'positive' | 'negative' | 'zero';

export function toneOf(score: number): Tone {
  return score > 0 ? 'positive' : score < 0 ? 'negative' : 'zero';
}

/** A score with its sign written out ("+0.12", "-0.3", "0"). */
export function signedNumber(value: number): string {
  return value > 0 ? `+${formatNumber(value)}` : formatNumber(value);
}

export interface HeatCell {
  score: number;
  /** The standard error of the score across the bags (`scores_std`; 0 without bags). */
  std: number;
  /** Share of the training rows in the cell (0–1). */
  share: number;
  /** |score| over the largest |score| of the map: how strong the cell's colour is (0–1). */
  strength: number;
  tone: Tone;
  /** No training row falls in the cell. */
  empty: boolean;
  /** The cell in words: its tooltip, its screen-reader label and the table's row. */
  text: string;
}

export interface PairHeatmap {
  label: string;
  features: [string, string];
  importance: number;
  /** The first feature's bins (the rows), the missing-value bin last. */
  rows: AxisLabel[];
  /** The second feature's bins (the columns), the missing-value bin last. */
  columns: AxisLabel[];
  /** cells[row][column], as the profile's scores[a][b]. */
  cells: HeatCell[][];
  /** The colour scale's ends, −extent and +extent (extent: the largest |score|), 0 in the middle, uncoloured. */
  scale: { low: string; high: string };
  /** The map in a few sentences, for screen readers. */
  summary: string;
  /** Some cell has a spread across the bags: its text gives the band, ± 2 standard errors. */
  banded: boolean;
}

/** Cells described in the summary: the strongest ones with training rows. */
const SUMMARY_CELLS = 3;

/** A pair term of the profile as a heat map over its two features' bins, centred at 0. */
export function pairHeatmap(interaction: Interaction): PairHeatmap {
  const [a, b] = interaction.features;
  const rows = axisLabels(interaction.bins[0]);
  const columns = axisLabels(interaction.bins[1]);
  const extent = Math.max(0, ...interaction.scores.flat().map(Math.abs));
  const cells = rows.map((row, i) =>
    columns.map((column, j): HeatCell => {
      const score = interaction.scores[i]?.[j] ?? 0;
      const share = interaction.freq[i]?.[j] ?? 0;
      const std = interaction.scores_std?.[i]?.[j] ?? 0;
      const rowsText = share > 0 ? `${formatPercent(share)} of rows` : 'no training rows';
      const spread = std > 0 ? ` ${plusMinus(std)}` : '';
      return {
        score,
        std,
        share,
        strength: extent > 0 ? Math.abs(score) / extent : 0,
        tone: toneOf(score),
        empty: share === 0,
        text: `${a} ${row.full}, ${b} ${column.full}: contribution ${signedNumber(score)}${spread}, ${rowsText}`,
      };
    }),
  );
  const banded = cells.some((row) => row.some((cell) => cell.std > 0));
  const strongest = cells
    .flat()
    .filter((cell) => !cell.empty && cell.score !== 0)
    .sort((x, y) => Math.abs(y.score) - Math.abs(x.score))
    .slice(0, SUMMARY_CELLS);
  const summary = [
    `Heat map of what ${a} and ${b} add together, beyond each one's own effect:`,
    `rows are the ${rows.length} bins of ${a}, columns the ${columns.length} bins of ${b}, each with the missing values last.`,
    extent > 0 ? `Contributions from ${signedNumber(-extent)} to ${signedNumber(extent)}.` : 'Every contribution is 0.',
    banded ? `${PLUS_MINUS_TEXT}.` : '',
    strongest.length ? `Strongest cells: ${strongest.map((cell) => cell.text).join('; ')}.` : '',
  ];
  return {
    label: pairLabel(interaction.features),
    features: [a, b],
    importance: interaction.importance,
    rows,
    columns,
    cells,
    scale: { low: signedNumber(-extent), high: signedNumber(extent) },
    summary: summary.filter(Boolean).join(' '),
    banded,
  };
}
