import { MIN_CLASS_ROWS, targetClassCounts, trainTestSplit, type DataFrame } from '../../engine';

/** The split of autotrain's final model; the parameter search only sees its training rows. */
export const AUTOTRAIN_SPLIT = { seed: 42, test_size: 0.2 } as const;

/** A class of a multiclass target with too few rows among autotrain's training rows to be trained. */
export interface ScarceClass {
  value: string;
  rows: number;
  trainingRows: number;
}

/** The training rows of autotrain's split of each frame asked about: one split serves every candidate column. */
const trainingRowsOf = new WeakMap<DataFrame, Int32Array>();

function trainingRows(frame: DataFrame): Int32Array {
  let rows = trainingRowsOf.get(frame);
  if (!rows) trainingRowsOf.set(frame, (rows = trainTestSplit(frame.nRows, AUTOTRAIN_SPLIT.test_size, AUTOTRAIN_SPLIT.seed).train));
  return rows;
}

/**
 * The classes of a multiclass target (3 or more values) that autotrain's training rows hold fewer than
 * MIN_CLASS_ROWS times: a train on this target is refused because of them. Empty for a binary target.
 */
export function scarceClasses(frame: DataFrame, target: string): ScarceClass[] {
  const all = targetClassCounts(frame, target);
  if (all.length < 3) return [];
  const training = new Map(targetClassCounts(frame.select([target]).take(trainingRows(frame)), target).map((c) => [c.value, c.count]));
  return all
    .map((c) => ({ value: c.value, rows: c.count, trainingRows: training.get(c.value) ?? 0 }))
    .filter((c) => c.trainingRows < MIN_CLASS_ROWS);
}

/** Why the scarce classes stop a train, in one clause: "class '.' has 1 row (1 among the training rows)…". */
export function scarceClassesText(scarce: readonly ScarceClass[]): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const listed = scarce.map((c) => `'${c.value}' has ${plural(c.rows, 'row')} (${c.trainingRows} among the training rows)`).join(', ');
  return `class ${listed}, and every class needs at least ${MIN_CLASS_ROWS} training rows`;
}
