/** What a hand edit does to a feature's steps (see `applyEdits` in `fit/edits.ts`). */
export const EDIT_OPS = ['shift', 'set', 'interpolate', 'merge', 'monotone', 'reset', 'remove'] as const;
export type EditOp = (typeof EDIT_OPS)[number];

/** The missing-value bin, as an edit's `bins` names it. */
export const MISSING_BIN = 'missing';

/** One hand edit of a feature's steps, with the wire's names. */
export interface StepEdit {
  feature: string;
  op: EditOp;
  /**
   * The feature's non-missing bins [first, last] as the profile lists them (both included), or the missing-value bin.
   * Omitted: every non-missing bin (for `reset`, every bin).
   */
  bins?: [number, number] | typeof MISSING_BIN;
  /** `shift`: added to the steps; `set`: their new value. */
  value?: number;
  /** `monotone`: 1 never decreasing, −1 never increasing. */
  direction?: 1 | -1;
  /** Multiclass: the class model edited (default every class). */
  class?: string;
  /** The partition edited (default every partition). */
  partition?: string;
}
