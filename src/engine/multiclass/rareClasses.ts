import { textValue, type DataFrame } from '../data/frame';
import { MIN_CLASS_ROWS } from '../model/limits';
import { targetClassCounts } from './multiclass';

/** A class of a multiclass target with too few training rows to fit its class model. */
export interface RareClass {
  value: string;
  /** Its rows in the training and test rows together. */
  rows: number;
  trainingRows: number;
}

/**
 * The classes of a target of 3 or more classes (over the training and test rows) that the training rows hold fewer
 * than MIN_CLASS_ROWS times, a class seen only in the test rows too: a multiclass fit refuses them. Empty for a
 * target of fewer than 3 classes, most frequent first.
 */
export function rareClasses(train: DataFrame, target: string, test?: DataFrame): RareClass[] {
  const training = targetClassCounts(train, target);
  const all = new Map(training.map((c) => [c.value, c.count]));
  for (const c of test ? targetClassCounts(test, target) : []) all.set(c.value, (all.get(c.value) ?? 0) + c.count);
  if (all.size < 3) return [];
  const trainingRows = new Map(training.map((c) => [c.value, c.count]));
  return [...all]
    .map(([value, rows]) => ({ value, rows, trainingRows: trainingRows.get(value) ?? 0 }))
    .filter((c) => c.trainingRows < MIN_CLASS_ROWS)
    .sort((a, b) => b.rows - a.rows || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

/** The rows of `frame` whose target is none of `classes` (rows with a missing target are kept). */
export function withoutClasses(frame: DataFrame, target: string, classes: readonly string[]): DataFrame {
  if (classes.length === 0) return frame;
  const left = new Set(classes);
  const col = frame.column(target);
  const kept: number[] = [];
  for (let r = 0; r < frame.nRows; r++) {
    const value = textValue(col, r);
    if (value === null || !left.has(value)) kept.push(r);
  }
  return kept.length === frame.nRows ? frame : frame.take(kept);
}
