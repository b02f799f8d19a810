import assert from 'node:assert/strict';
import { allowedOps, keyAction, nudgeSize, selectionEdit, type KeyPress } from '../../../src/views/editActions';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe('views: the step editor\u2019s keys and edits', () => {
  it('moves and extends the selection with the arrows, nudges with up and down, one key per edit', () => {
    assert.deepEqual(keyAction(press('ArrowRight')), { kind: 'select', move: 'next', extend: false });
    assert.deepEqual(keyAction(press('ArrowLeft', { shiftKey: true })), { kind: 'select', move: 'previous', extend: true });
    assert.deepEqual(keyAction(press('End', { shiftKey: true })), { kind: 'select', move: 'last', extend: true });
    assert.deepEqual(keyAction(press('ArrowDown')), { kind: 'nudge', direction: -1 });
    assert.deepEqual(keyAction(press('m')), { kind: 'edit', op: 'merge' });
    assert.deepEqual(keyAction(press('M', { shiftKey: true })), { kind: 'edit', op: 'merge' }, 'with caps or shift too');
    assert.deepEqual(keyAction(press('u')), { kind: 'edit', op: 'monotone', direction: 1 });
    assert.deepEqual(keyAction(press('d')), { kind: 'edit', op: 'monotone', direction: -1 });
    assert.deepEqual(keyAction(press('s')), { kind: 'askValue', op: 'shift' });
    assert.deepEqual(keyAction(press('e')), { kind: 'askValue', op: 'set' });
    assert.deepEqual(keyAction(press('Delete')), { kind: 'edit', op: 'remove' });
    assert.deepEqual(keyAction(press('Escape')), { kind: 'clearSelection' });
    assert.equal(keyAction(press('x')), undefined);
    assert.equal(keyAction(press('m', { altKey: true })), undefined);
  });

  it('undoes with Ctrl or Cmd+Z and redoes with Shift or Y; Ctrl+M is VS Code\u2019s, not a merge', () => {
    assert.deepEqual(keyAction(press('z', { ctrlKey: true })), { kind: 'undo' });
    assert.deepEqual(keyAction(press('z', { metaKey: true })), { kind: 'undo' });
    assert.deepEqual(keyAction(press('Z', { metaKey: true, shiftKey: true })), { kind: 'redo' });
    assert.deepEqual(keyAction(press('y', { ctrlKey: true })), { kind: 'redo' });
    assert.deepEqual(keyAction(press('a', { ctrlKey: true })), { kind: 'selectAll' });
    assert.equal(keyAction(press('m', { ctrlKey: true })), undefined);
  });

  it('allows what the selected bins allow', () => {
    const sorted = (ops: Set<string>) => [...ops].sort();
    assert.deepEqual(sorted(allowedOps(undefined, 'boosted')), ['remove', 'reset']);
    assert.deepEqual(sorted(allowedOps(undefined, 'xplainable')), ['reset'], 'an xplainable feature cannot be removed');
    assert.deepEqual(sorted(allowedOps({ anchor: 'missing', focus: 'missing' }, 'xplainable')), ['reset', 'set', 'shift']);
    assert.deepEqual(sorted(allowedOps({ anchor: 3, focus: 3 }, 'xplainable')), ['reset', 'set', 'shift']);
    assert.deepEqual(sorted(allowedOps({ anchor: 3, focus: 4 }, 'xplainable')), ['merge', 'monotone', 'reset', 'set', 'shift']);
    assert.deepEqual(sorted(allowedOps({ anchor: 5, focus: 3 }, 'xplainable')), ['interpolate', 'merge', 'monotone', 'reset', 'set', 'shift']);
  });

  it('makes the wire edit of the selection in the part shown', () => {
    const scope = { partition: 'north', class: 'setosa', namesPartition: true };
    assert.deepEqual(selectionEdit('monotone', { anchor: 5, focus: 2 }, 'age', scope, { direction: -1 }), {
      feature: 'age', op: 'monotone', bins: [2, 5], direction: -1, partition: 'north', class: 'setosa',
    });
    assert.deepEqual(selectionEdit('shift', { anchor: 'missing', focus: 'missing' }, 'age', { partition: '__dataset__', namesPartition: false }, { value: 0.5 }), {
      feature: 'age', op: 'shift', bins: 'missing', value: 0.5,
    });
    assert.deepEqual(selectionEdit('reset', undefined, 'age', { partition: '__dataset__', namesPartition: false }), { feature: 'age', op: 'reset' });
    assert.deepEqual(selectionEdit('remove', { anchor: 1, focus: 1 }, 'age', { partition: 'p', namesPartition: true }), { feature: 'age', op: 'remove', partition: 'p' });
  });

  it('nudges by a round twentieth of the contribution range', () => {
    assert.equal(nudgeSize([-0.43, 0.87]), 0.05);
    assert.equal(nudgeSize([2, 30]), 2);
    assert.equal(nudgeSize([0, 0]), 0.01);
  });
});
