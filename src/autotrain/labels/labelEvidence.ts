import type { DatasetSummary, SummaryField } from '../../contract/autotrain';
import type { DataFrame } from '../../engine';
import { columnNumbers, columnTexts, levelCounts } from '../columns/columns';
import { fmt, pearson, round } from '../columns/stats';
import { scarceClasses, type ScarceClass } from './trainingSplit';

/** A binary target whose rarer value is below this share trains a classifier that predicts the majority class. */
export const RARE_CLASS_SHARE = 0.05;
/** Rows of a candidate that must equal a sum or product of two other columns (or follow one) to call it a leak. */
const LEAK_ROW_SHARE = 0.99;
const DUPLICATE_CORRELATION = 0.995;
/** Pairs of columns tried for sums and products are limited to this many numeric columns. */
const MAX_LEAK_COLUMNS = 40;
const MIN_ROWS = 10;
/** A class with fewer rows has at most one or two among the test rows: too few to learn it or to judge it. */
export const MIN_EVALUATION_ROWS = 10;

export interface LabelEvidence {
  /** Share of the rarer value of a binary column (null when not binary or unknown). */
  minorityShare: number | null;
  /** How the column is computed from other columns, when it is (a target leak). */
  leak: string | null;
  /** Classes of a multiclass column too rare among autotrain's training rows to train on it. */
  scarce: ScarceClass[];
  /** The classes of a multiclass column with fewer than MIN_EVALUATION_ROWS rows: how many, and the smallest. */
  thin: { classes: number; smallest: { value: string; count: number; share: number } } | null;
}

function minorityShare(frame: DataFrame | undefined, column: string, p: SummaryField['properties'] | undefined): number | null {
  if (!p || p.num_unique_values !== 2) return null;
  if (frame?.has(column)) {
    const counts = levelCounts(columnTexts(frame.column(column)));
    const total = counts.reduce((a, c) => a + c.count, 0);
    return total ? counts[counts.length - 1].count / total : null;
  }
  if (p.dtype === 'number' && typeof p.min === 'number' && typeof p.max === 'number' && p.mean !== undefined && p.max > p.min) {
    const high = (p.mean - p.min) / (p.max - p.min);
    return Math.min(high, 1 - high);
  }
  return null;
}

function thinClasses(frame: DataFrame, column: string): LabelEvidence['thin'] {
  const counts = levelCounts(columnTexts(frame.column(column)));
  const total = counts.reduce((a, c) => a + c.count, 0);
  const thin = counts.filter((c) => c.count < MIN_EVALUATION_ROWS);
  const last = counts[counts.length - 1];
  return thin.length ? { classes: thin.length, smallest: { value: last.value, count: last.count, share: last.count / total } } : null;
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Share of rows where `target` equals `combine(x, y)`; a missing x or y counts as 0 (totals often skip empty parts). */
function matchShare(target: Float64Array, x: Float64Array, y: Float64Array, combine: (a: number, b: number) => number): number {
  const allowedMisses = Math.floor((1 - LEAK_ROW_SHARE) * target.length);
  let n = 0;
  let misses = 0;
  for (let i = 0; i < target.length; i++) {
    if (!Number.isFinite(target[i])) continue;
    const a = Number.isFinite(x[i]) ? x[i] : 0;
    const b = Number.isFinite(y[i]) ? y[i] : 0;
    n++;
    if (!close(target[i], combine(a, b)) && ++misses > allowedMisses) return 0;
  }
  return n >= MIN_ROWS ? (n - misses) / n : 0;
}

/** How a column repeats, sums or multiplies other columns of the rows, and which columns it comes from. */
export interface Derivation {
  text: string;
  sources: string[];
}

/** Whether a numeric column repeats, sums or multiplies other numeric columns (`numeric`) of the rows. */
export function derivation(frame: DataFrame, column: string, numeric: readonly string[]): Derivation | null {
  const target = columnNumbers(frame.column(column));
  const others = numeric.filter((c) => c !== column).slice(0, MAX_LEAK_COLUMNS);
  const values = new Map(others.map((c) => [c, columnNumbers(frame.column(c))]));
  for (const other of others) {
    const { r, n } = pearson(target, values.get(other) as Float64Array);
    if (r !== null && n >= MIN_ROWS && Math.abs(r) >= DUPLICATE_CORRELATION) {
      return { text: `it follows '${other}' almost exactly (correlation ${fmt(round(r, 3))})`, sources: [other] };
    }
  }
  for (let i = 0; i < others.length; i++) {
    for (let j = i + 1; j < others.length; j++) {
      const x = values.get(others[i]) as Float64Array;
      const y = values.get(others[j]) as Float64Array;
      const sources = [others[i], others[j]];
      if (matchShare(target, x, y, (a, b) => a + b) >= LEAK_ROW_SHARE) return { text: `it is the sum of '${others[i]}' and '${others[j]}'`, sources };
      if (matchShare(target, x, y, (a, b) => a * b) >= LEAK_ROW_SHARE) return { text: `it is the product of '${others[i]}' and '${others[j]}'`, sources };
    }
  }
  return null;
}

/** The numeric columns (more than two values) of a summary that the rows hold. */
export function measuredColumns(summary: Pick<DatasetSummary, 'fields'>, frame: DataFrame): string[] {
  return summary.fields.filter((f) => f.properties.dtype === 'number' && f.properties.num_unique_values > 2 && frame.has(f.column)).map((f) => f.column);
}

/**
 * What the rows say about each candidate label: how rare a binary class is, whether it leaks other columns, which
 * classes of a multiclass column are too rare to train on, and its smallest class when that is too small to judge.
 */
export function labelEvidence(summary: Pick<DatasetSummary, 'fields'>, frame: DataFrame | undefined, field: SummaryField): LabelEvidence {
  const { column, properties: p } = field;
  const rows = frame?.has(column) ? frame : undefined;
  const leak = rows && p?.dtype === 'number' ? (derivation(rows, column, measuredColumns(summary, rows))?.text ?? null) : null;
  const multiclass = rows && p && p.dtype !== 'number' && p.num_unique_values > 2;
  const scarce = multiclass ? scarceClasses(rows, column) : [];
  return { minorityShare: minorityShare(frame, column, p), leak, scarce, thin: multiclass ? thinClasses(rows, column) : null };
}
