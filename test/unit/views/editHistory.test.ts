import assert from 'node:assert/strict';
import type { Edit } from '../../../src/contract/edits';
import { NO_EDITS, pushEdit, redoEdit, restoredHistory, undoEdit } from '../../../src/views/editHistory';

const merge: Edit = { feature: 'age', op: 'merge', bins: [0, 2] };
const shift = (value: number, bins: Edit['bins'] = [1, 1]): Edit => ({ feature: 'age', op: 'shift', bins, value });

describe('views: the history of hand edits', () => {
  it('undoes and redoes in order, and a new edit drops what was undone', () => {
    let history = pushEdit(pushEdit(NO_EDITS, merge), shift(0.5));
    history = undoEdit(history);
    assert.deepEqual(history, { done: [merge], undone: [shift(0.5)] });
    history = undoEdit(history);
    assert.deepEqual(history, { done: [], undone: [shift(0.5), merge] });
    assert.equal(undoEdit(history), history, 'nothing left to undo');
    history = redoEdit(history);
    assert.deepEqual(history.done, [merge]);
    assert.deepEqual(pushEdit(history, shift(1)), { done: [merge, shift(1)], undone: [] });
    assert.equal(redoEdit(pushEdit(history, shift(1))).done.length, 2, 'nothing left to redo');
  });

  it('adds a nudge to the shift of the same bins just before it, and nothing else', () => {
    const nudged = pushEdit(pushEdit(NO_EDITS, shift(0.1), true), shift(0.1), true);
    assert.equal(nudged.done.length, 1);
    assert.ok(Math.abs((nudged.done[0].value ?? 0) - 0.2) < 1e-12);
    assert.equal(pushEdit(nudged, shift(0.1, [2, 2]), true).done.length, 2, 'other bins');
    assert.equal(pushEdit(nudged, { ...shift(0.1), class: 'setosa' }, true).done.length, 2, 'another class');
    assert.equal(pushEdit(nudged, shift(0.1)).done.length, 2, 'a typed shift is its own edit');
  });

  it('takes back a saved history, and no edits from anything else', () => {
    const saved = JSON.parse(JSON.stringify(pushEdit(NO_EDITS, merge))) as unknown;
    assert.deepEqual(restoredHistory(saved), { done: [merge], undone: [] });
    assert.equal(restoredHistory(undefined), NO_EDITS);
    assert.equal(restoredHistory({ done: 'x' }), NO_EDITS);
  });
});
