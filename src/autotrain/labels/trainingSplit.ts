import type { RareLabelClass } from '../../contract/autotrain';
import { MIN_CLASS_ROWS, rareClasses, trainTestSplit, type DataFrame, type RareClass } from '../../engine';

/** The split of autotrain's final model; the parameter search only sees its training rows. */
export const AUTOTRAIN_SPLIT = { seed: 42, test_size: 0.2 } as const;

/** A class of a multiclass target with too few rows among autotrain's training rows to be trained. */
export type ScarceClass = RareClass;

/** Autotrain's split of each frame asked about: one split serves every candidate column. */
const splitOf = new WeakMap<DataFrame, { train: Int32Array; test: Int32Array }>();

function autotrainSplit(frame: DataFrame): { train: Int32Array; test: Int32Array } {
  let split = splitOf.get(frame);
  if (!split) splitOf.set(frame, (split = trainTestSplit(frame.nRows, AUTOTRAIN_SPLIT.test_size, AUTOTRAIN_SPLIT.seed)));
  return split;
}

/**
 * The classes of a multiclass target (3 or more values) that autotrain's training rows hold fewer than
 * MIN_CLASS_ROWS times: a train on this target leaves their rows out, or is refused. Empty for a binary target.
 */
export function scarceClasses(frame: DataFrame, target: string): ScarceClass[] {
  const { train, test } = autotrainSplit(frame);
  const column = frame.select([target]);
  return rareClasses(column.take(train), target, column.take(test));
}

/** Why the scarce classes stop a train as it is, in one clause: "class '.' has 1 row (1 among the training rows)…". */
export function scarceClassesText(scarce: readonly ScarceClass[]): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const listed = scarce.map((c) => `'${c.value}' has ${plural(c.rows, 'row')} (${c.trainingRows} among the training rows)`).join(', ');
  return `class ${listed}, and every class needs at least ${MIN_CLASS_ROWS} training rows`;
}

/** The rows of the scarce classes, as the object of "leave out": "that row", "those 12 rows". */
export function scarceRowsText(scarce: readonly ScarceClass[]): string {
  const rows = scarce.reduce((n, c) => n + c.rows, 0);
  return rows === 1 ? 'that row' : `those ${rows.toLocaleString('en-US')} rows`;
}

/** The classes too rare to train as a label reports them. */
export function rareLabelClasses(scarce: readonly ScarceClass[]): RareLabelClass[] {
  return scarce.map((c) => ({ class: c.value, rows: c.rows, training_rows: c.trainingRows }));
}
