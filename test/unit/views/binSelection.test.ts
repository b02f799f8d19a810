import assert from 'node:assert/strict';
import { clampSelection, isSelected, moveSelection, pickBin, selectedRange, type BinSelection } from '../../../src/views/binSelection';

describe('views: selecting bins of a feature', () => {
  it('picks a bin, extends from the first pick with shift-click or a drag, in either direction', () => {
    const one = pickBin(undefined, 4, false);
    assert.deepEqual(selectedRange(one), [4, 4]);
    const wider = pickBin(one, 1, true);
    assert.deepEqual(selectedRange(wider), [1, 4]);
    assert.deepEqual(selectedRange(pickBin(wider, 7, true)), [4, 7], 'extends from the anchor, not the last pick');
    assert.deepEqual(selectedRange(pickBin(wider, 7, false)), [7, 7]);
    assert.equal(isSelected(wider, 2), true);
    assert.equal(isSelected(wider, 5), false);
    assert.equal(isSelected(undefined, 0), false);
  });

  it('keeps the missing-value bin on its own: a range never reaches it', () => {
    const missing = pickBin(pickBin(undefined, 2, false), 'missing', true);
    assert.equal(selectedRange(missing), 'missing');
    assert.equal(isSelected(missing, 'missing'), true);
    assert.equal(isSelected(missing, 2), false);
    assert.deepEqual(selectedRange(pickBin(missing, 3, true)), [3, 3], 'shift-click from the missing bin starts afresh');
  });

  it('moves with the arrow keys, onto the missing bin after the last, and extends with shift only up to the last', () => {
    let selection: BinSelection | undefined = moveSelection(undefined, 'next', false, 5, true);
    assert.deepEqual(selection, { anchor: 0, focus: 0 });
    selection = moveSelection(selection, 'next', true, 5, true);
    selection = moveSelection(selection, 'next', true, 5, true);
    assert.deepEqual(selectedRange(selection!), [0, 2]);
    selection = moveSelection(selection, 'last', true, 5, true);
    assert.deepEqual(selectedRange(selection!), [0, 4], 'End with shift stops at the last bin');
    selection = moveSelection(selection, 'next', false, 5, true);
    assert.equal(selectedRange(selection!), 'missing');
    assert.deepEqual(selectedRange(moveSelection(selection, 'previous', false, 5, true)!), [4, 4]);
    assert.deepEqual(selectedRange(moveSelection(selection, 'previous', true, 5, true)!), [4, 4], 'shift+left from the missing bin selects the last');
    assert.deepEqual(moveSelection({ anchor: 4, focus: 4 }, 'next', false, 5, false), { anchor: 4, focus: 4 }, 'no missing bin: stays on the last');
    assert.deepEqual(moveSelection({ anchor: 0, focus: 0 }, 'previous', false, 5, true), { anchor: 0, focus: 0 });
    assert.deepEqual(moveSelection(undefined, 'next', false, 0, true), { anchor: 'missing', focus: 'missing' }, 'only a missing bin');
    assert.equal(moveSelection(undefined, 'next', false, 0, false), undefined);
  });

  it('drops a selection the bins of another partition or class do not have', () => {
    assert.equal(clampSelection({ anchor: 2, focus: 6 }, 5, true), undefined);
    assert.deepEqual(clampSelection({ anchor: 2, focus: 4 }, 5, true), { anchor: 2, focus: 4 });
    assert.equal(clampSelection({ anchor: 'missing', focus: 'missing' }, 5, false), undefined);
  });
});
