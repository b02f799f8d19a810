/**
 * What the profile panel's step editor does for a key or a toolbar button (pure): which edits the selected bins
 * allow, the edit an action makes of them, and the key that does each.
 */
import type { Edit } from '../contract/edits';
import type { EditOp } from '../engine/model/edits';
import { MISSING_BIN } from '../engine/model/edits';
import { selectedRange, type BinMove, type BinSelection } from './binSelection';
import type { EditScope } from './classProfiles';
import type { FitMethod } from '../engine/params/table';
import { scopeFields } from './stepEdits';

export type EditorAction =
  | { kind: 'select'; move: BinMove; extend: boolean }
  | { kind: 'selectAll' }
  | { kind: 'clearSelection' }
  /** Shift the selected steps a little up (1) or down (−1). */
  | { kind: 'nudge'; direction: 1 | -1 }
  /** Shift or set the selected steps: the value is typed first. */
  | { kind: 'askValue'; op: 'shift' | 'set' }
  | { kind: 'edit'; op: Exclude<EditOp, 'shift' | 'set'>; direction?: 1 | -1 }
  | { kind: 'undo' }
  | { kind: 'redo' };

export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** One key per edit; the toolbar's buttons name them. */
export const EDIT_KEYS = {
  shift: 'S',
  set: 'E',
  interpolate: 'I',
  merge: 'M',
  monotoneUp: 'U',
  monotoneDown: 'D',
  reset: 'R',
  remove: 'Delete',
} as const;

const MOVES: Readonly<Record<string, BinMove>> = { ArrowLeft: 'previous', ArrowRight: 'next', Home: 'first', End: 'last' };

const LETTERS: Readonly<Record<string, EditorAction>> = {
  s: { kind: 'askValue', op: 'shift' },
  e: { kind: 'askValue', op: 'set' },
  i: { kind: 'edit', op: 'interpolate' },
  m: { kind: 'edit', op: 'merge' },
  u: { kind: 'edit', op: 'monotone', direction: 1 },
  d: { kind: 'edit', op: 'monotone', direction: -1 },
  r: { kind: 'edit', op: 'reset' },
};

/** The action of a key pressed on the chart (Ctrl and Cmd alike), or undefined for a key the editor leaves alone. */
export function keyAction(press: KeyPress): EditorAction | undefined {
  const command = press.ctrlKey || press.metaKey;
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  if (command && !press.altKey) {
    if (key === 'z') return press.shiftKey ? { kind: 'redo' } : { kind: 'undo' };
    if (key === 'y' && !press.shiftKey) return { kind: 'redo' };
    if (key === 'a' && !press.shiftKey) return { kind: 'selectAll' };
    return undefined;
  }
  if (command || press.altKey) return undefined;
  const move = MOVES[key];
  if (move) return { kind: 'select', move, extend: press.shiftKey };
  if (key === 'ArrowUp' || key === 'ArrowDown') return { kind: 'nudge', direction: key === 'ArrowUp' ? 1 : -1 };
  if (key === 'Escape') return { kind: 'clearSelection' };
  if (key === 'Delete' || key === 'Backspace') return { kind: 'edit', op: 'remove' };
  return LETTERS[key];
}

/** Undo and redo anywhere in the panel but in a text field, which keeps its own. */
export function isHistoryKey(press: KeyPress): boolean {
  const action = keyAction(press);
  return action?.kind === 'undo' || action?.kind === 'redo';
}

/**
 * The edits the selection allows: shift, set and reset any bins (without a selection, reset takes every bin);
 * merge and monotone two bins or more, interpolate three or more, never the missing-value bin; remove takes the
 * whole feature, and only a `boosted` version's (its steps are centred, so the mean prediction stays).
 */
export function allowedOps(selection: BinSelection | undefined, method: FitMethod): Set<EditOp> {
  const ops = new Set<EditOp>(['reset']);
  if (method === 'boosted') ops.add('remove');
  if (!selection) return ops;
  ops.add('shift').add('set');
  const range = selectedRange(selection);
  if (range === MISSING_BIN) return ops;
  const width = range[1] - range[0] + 1;
  if (width >= 2) ops.add('merge').add('monotone');
  if (width >= 3) ops.add('interpolate');
  return ops;
}

/** The edit of `op` on the selected bins of `feature` in `scope` (every bin without a selection; remove names none). */
export function selectionEdit(
  op: EditOp,
  selection: BinSelection | undefined,
  feature: string,
  scope: EditScope,
  extra: { value?: number; direction?: 1 | -1 } = {},
): Edit {
  const bins = op === 'remove' || !selection ? undefined : selectedRange(selection);
  return {
    feature,
    op,
    ...(bins !== undefined ? { bins } : {}),
    ...(op === 'shift' || op === 'set' ? { value: extra.value } : {}),
    ...(op === 'monotone' ? { direction: extra.direction } : {}),
    ...scopeFields(scope),
  };
}

/** How far one press of an arrow key moves the selected steps: a round twentieth of the chart's contribution range. */
export function nudgeSize(scores: readonly number[]): number {
  const span = Math.max(...scores, 0) - Math.min(...scores, 0);
  if (!(span > 0)) return 0.01;
  const rough = span / 20;
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  return (fraction < 1.5 ? 1 : fraction < 3.5 ? 2 : fraction < 7.5 ? 5 : 10) * power;
}
