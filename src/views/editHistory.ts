/**
 * The profile panel's hand edits with undo and redo (pure values, so the panel keeps them in its saved state and a
 * reloaded panel has them back). The edits apply in the order done; a new edit drops what was undone.
 */
import type { Edit } from '../contract/edits';

export interface EditHistory {
  /** The edits in force, in the order applied. */
  done: Edit[];
  /** Undone edits, the most recently undone last. */
  undone: Edit[];
}

export const NO_EDITS: EditHistory = { done: [], undone: [] };

function sameTarget(a: Edit, b: Edit): boolean {
  return a.feature === b.feature && a.partition === b.partition && a.class === b.class && JSON.stringify(a.bins) === JSON.stringify(b.bins);
}

/**
 * `edit` done after the others. With `coalesce`, a shift right after a shift of the same bins adds to it instead, so
 * holding a key that nudges the steps makes one edit (and one undo).
 */
export function pushEdit(history: EditHistory, edit: Edit, coalesce = false): EditHistory {
  const last = history.done.at(-1);
  if (coalesce && last && last.op === 'shift' && edit.op === 'shift' && sameTarget(last, edit)) {
    return { done: [...history.done.slice(0, -1), { ...last, value: (last.value ?? 0) + (edit.value ?? 0) }], undone: [] };
  }
  return { done: [...history.done, edit], undone: [] };
}

export function undoEdit(history: EditHistory): EditHistory {
  const last = history.done.at(-1);
  return last ? { done: history.done.slice(0, -1), undone: [...history.undone, last] } : history;
}

export function redoEdit(history: EditHistory): EditHistory {
  const next = history.undone.at(-1);
  return next ? { done: [...history.done, next], undone: history.undone.slice(0, -1) } : history;
}

/** A saved history as the panel's state gives it back, or no edits when it is not one (a state from an older panel). */
export function restoredHistory(saved: unknown): EditHistory {
  const value = saved as Partial<EditHistory> | undefined;
  return Array.isArray(value?.done) && Array.isArray(value?.undone) ? { done: value.done, undone: value.undone } : NO_EDITS;
}
