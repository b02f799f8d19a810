/**
 * Which bins of a feature's chart are selected for an edit (pure): a click picks a bin, shift-click or a drag extends
 * the selection from where it started, arrow keys move it and shift+arrows extend it. A range never crosses the
 * missing-value bin, which is selected on its own (edits across neighbouring bins refuse it).
 */
import { MISSING_BIN } from '../engine/model/edits';

/** A non-missing bin by its index in profile order, or the missing-value bin. */
export type BinRef = number | typeof MISSING_BIN;

/** The bins of an edit, as the wire names them: [first, last] both included, or the missing-value bin. */
export type BinRange = [number, number] | typeof MISSING_BIN;

export interface BinSelection {
  /** Where the selection started (a click, or the bin before shift+arrows). */
  anchor: BinRef;
  /** The bin last moved to; arrows move from here. */
  focus: BinRef;
}

export function selectedRange(selection: BinSelection): BinRange {
  const { anchor, focus } = selection;
  if (anchor === MISSING_BIN || focus === MISSING_BIN) return MISSING_BIN;
  return [Math.min(anchor, focus), Math.max(anchor, focus)];
}

export function isSelected(selection: BinSelection | undefined, bin: BinRef): boolean {
  if (!selection) return false;
  const range = selectedRange(selection);
  if (range === MISSING_BIN || bin === MISSING_BIN) return range === bin;
  return bin >= range[0] && bin <= range[1];
}

/** A click on `bin`; with `extend` (shift-click, or dragging onto it) the selection grows from its anchor. */
export function pickBin(selection: BinSelection | undefined, bin: BinRef, extend: boolean): BinSelection {
  if (!extend || !selection || bin === MISSING_BIN || selection.anchor === MISSING_BIN) return { anchor: bin, focus: bin };
  return { anchor: selection.anchor, focus: bin };
}

export type BinMove = 'previous' | 'next' | 'first' | 'last';

/**
 * An arrow key (or Home/End) over a feature with `bins` non-missing bins and, when `hasMissing`, its missing-value
 * bin after the last. Without `extend` the selection moves to one bin; with it, the focus moves and the anchor
 * stays, stopping at the last non-missing bin.
 */
export function moveSelection(selection: BinSelection | undefined, move: BinMove, extend: boolean, bins: number, hasMissing: boolean): BinSelection | undefined {
  const lastBin = bins - 1;
  const end = hasMissing && !extend ? MISSING_BIN : lastBin;
  if (lastBin < 0) return hasMissing ? { anchor: MISSING_BIN, focus: MISSING_BIN } : undefined;
  if (!selection) return move === 'last' || move === 'previous' ? { anchor: end, focus: end } : { anchor: 0, focus: 0 };
  const focus = selection.focus;
  let next: BinRef;
  if (move === 'first') next = 0;
  else if (move === 'last') next = end;
  else if (focus === MISSING_BIN) next = move === 'previous' ? lastBin : MISSING_BIN;
  else if (move === 'previous') next = Math.max(0, focus - 1);
  else next = focus < lastBin ? focus + 1 : end;
  if (!extend || selection.anchor === MISSING_BIN || next === MISSING_BIN) return { anchor: next, focus: next };
  return { anchor: selection.anchor, focus: next };
}

/** The selection still valid over a feature with `bins` non-missing bins (a partition or class switch can change them). */
export function clampSelection(selection: BinSelection | undefined, bins: number, hasMissing: boolean): BinSelection | undefined {
  if (!selection) return undefined;
  const fits = (bin: BinRef) => (bin === MISSING_BIN ? hasMissing : bin < bins);
  return fits(selection.anchor) && fits(selection.focus) ? selection : undefined;
}
