import assert from 'node:assert/strict';
import { binsText, describeEdit } from '../../../src/views/editText';

const labels = ['< 30', '30 to 50', '≥ 50'];

describe('views: hand edits in words', () => {
  it('names the bins by their labels', () => {
    assert.equal(binsText([0, 2], labels), 'bins < 30 … ≥ 50');
    assert.equal(binsText([1, 1], labels), 'bin 30 to 50');
    assert.equal(binsText('missing', labels), 'the missing-value bin');
    assert.equal(binsText(undefined, labels), 'every bin');
    assert.equal(binsText([3, 4], labels), 'bins #4 … #5', 'positions when the labels are unknown');
  });

  it('says what each edit does, and where', () => {
    assert.equal(describeEdit({ feature: 'age', op: 'shift', bins: [0, 1], value: -0.25 }, labels), 'Shift bins < 30 … 30 to 50 of age by -0.25');
    assert.equal(describeEdit({ feature: 'age', op: 'shift', bins: 'missing', value: 1 }, labels), 'Shift the missing-value bin of age by +1');
    assert.equal(describeEdit({ feature: 'age', op: 'set', bins: [2, 2], value: 0 }, labels), 'Set bin ≥ 50 of age to 0');
    assert.equal(describeEdit({ feature: 'age', op: 'monotone', bins: [0, 2], direction: -1 }, labels), 'Make bins < 30 … ≥ 50 of age never increasing');
    assert.equal(describeEdit({ feature: 'age', op: 'merge', bins: [0, 2], class: 'setosa', partition: '__dataset__' }, labels), 'Merge bins < 30 … ≥ 50 of age into one step (class setosa, partition All data)');
    assert.equal(describeEdit({ feature: 'age', op: 'remove' }, labels), 'Remove age');
  });
});
