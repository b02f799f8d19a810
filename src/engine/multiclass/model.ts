import type { TransparentModel } from '../model/types';

export interface MulticlassModel {
  modelType: 'multiclass';
  target: string;
  partitionOn: string | null;
  /** The target's distinct values as text, sorted as text. */
  classes: string[];
  /** One binary classifier per class (the class against the rest), in `classes` order. */
  classModels: TransparentModel[];
}

/** Classes are sorted as text (code units), as the service sorts them. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
