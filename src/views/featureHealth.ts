/** Turns FeatureInfo entries into the feature info panel's figures, warnings and charts (pure). */
import type { Distribution, FeatureInfoEntry } from '../contract/models';
import { formatNumber, formatPercent, formatSignificant } from './format';

export interface HealthWarning {
  severity: 'warning' | 'error';
  message: string;
}

/** Thresholds above which a figure is worth a warning. */
export const HEALTH_LIMITS = {
  missingWarning: 0.2,
  missingError: 0.5,
  cardinalityWarning: 50,
  imbalanceWarning: 0.9,
  skewWarning: 2,
} as const;

/** Warnings about a feature's health figures, most serious first. */
export function healthWarnings(entry: FeatureInfoEntry): HealthWarning[] {
  const info = entry.health_info;
  const warnings: HealthWarning[] = [];
  if (info.missing_pct >= HEALTH_LIMITS.missingError) {
    warnings.push({ severity: 'error', message: `${formatPercent(info.missing_pct)} of values are missing.` });
  } else if (info.missing_pct >= HEALTH_LIMITS.missingWarning) {
    warnings.push({ severity: 'warning', message: `${formatPercent(info.missing_pct)} of values are missing.` });
  }
  const distinct = info.cardinality ?? info.nunique;
  if (entry.type === 'categorical' && typeof distinct === 'number' && distinct > HEALTH_LIMITS.cardinalityWarning) {
    warnings.push({ severity: 'warning', message: `High cardinality: ${distinct} distinct values.` });
  }
  if (typeof info.category_imbalance === 'number' && info.category_imbalance >= HEALTH_LIMITS.imbalanceWarning) {
    warnings.push({
      severity: 'warning',
      message: `Imbalanced: the most common value covers ${formatPercent(info.category_imbalance)} of rows.`,
    });
  }
  if (typeof info.skewness === 'number' && Math.abs(info.skewness) >= HEALTH_LIMITS.skewWarning) {
    warnings.push({ severity: 'warning', message: `Skewed distribution (skewness ${formatNumber(info.skewness, 2)}).` });
  }
  if (typeof info.mixed_type === 'number' && info.mixed_type > 0) {
    warnings.push({ severity: 'warning', message: 'Mixed value types in one column.' });
  }
  if (typeof info.mixed_case === 'number' && info.mixed_case > 0) {
    warnings.push({ severity: 'warning', message: 'The same category appears in different letter case.' });
  }
  if (entry.type === 'empty') warnings.push({ severity: 'error', message: 'The column has no values.' });
  return warnings.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
}

export interface HealthFigure {
  label: string;
  value: string;
}

const FIGURES: readonly [keyof FeatureInfoEntry['health_info'], string, 'number' | 'percent' | 'text'][] = [
  ['missing_pct', 'Missing', 'percent'],
  ['min', 'Min', 'number'],
  ['max', 'Max', 'number'],
  ['mean', 'Mean', 'number'],
  ['median', 'Median', 'number'],
  ['std', 'Std. dev.', 'number'],
  ['skewness', 'Skewness', 'number'],
  ['kurtosis', 'Kurtosis', 'number'],
  ['nunique', 'Distinct', 'number'],
  ['cardinality', 'Cardinality', 'number'],
  ['mode', 'Mode', 'text'],
  ['category_imbalance', 'Top value share', 'percent'],
];

/** The figures a feature reports, formatted, in a fixed order. */
export function healthFigures(entry: FeatureInfoEntry): HealthFigure[] {
  const info = entry.health_info as Record<string, unknown>;
  const figures: HealthFigure[] = [];
  for (const [key, label, format] of FIGURES) {
    const value = info[key];
    if (value === undefined || value === null) continue;
    if (format === 'text') figures.push({ label, value: String(value) });
    else if (typeof value === 'number') {
      figures.push({ label, value: format === 'percent' ? formatPercent(value) : formatNumber(value) });
    }
  }
  return figures;
}

export interface DistributionBars {
  labels: string[];
  counts: number[];
}

/** Bars of a feature's distribution: histogram bins labelled by range, or categories by value (top `limit`). */
export function distributionBars(distribution: Distribution, limit = 30): DistributionBars {
  if (distribution.kind === 'histogram') {
    const n = Math.min(distribution.counts.length, Math.max(0, distribution.edges.length - 1));
    const labels: string[] = [];
    for (let i = 0; i < n; i++) {
      labels.push(`${formatSignificant(distribution.edges[i])} to ${formatSignificant(distribution.edges[i + 1])}`);
    }
    return { labels, counts: distribution.counts.slice(0, n) };
  }
  const sorted = [...distribution.values].sort((a, b) => b.count - a.count);
  const shown = sorted.slice(0, limit);
  const rest = sorted.slice(limit).reduce((sum, v) => sum + v.count, 0);
  return {
    labels: [...shown.map((v) => v.value), ...(rest > 0 ? [`Other (${sorted.length - limit})`] : [])],
    counts: [...shown.map((v) => v.count), ...(rest > 0 ? [rest] : [])],
  };
}
