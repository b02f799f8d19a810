import assert from 'node:assert/strict';
import { lineDiff } from '../../../src/views/lineDiff';

describe('views: line diff of chart code', () => {
  it('marks added and removed lines and keeps the rest in order', () => {
    const diff = lineDiff('a\nb\nc\nd', 'a\nB\nc\nd\ne');
    assert.deepEqual(diff, [
      { kind: 'same', text: 'a' },
      { kind: 'added', text: 'B' },
      { kind: 'removed', text: 'b' },
      { kind: 'same', text: 'c' },
      { kind: 'same', text: 'd' },
      { kind: 'added', text: 'e' },
    ]);
  });

  it('rebuilds both texts from the diff', () => {
    const before = 'import x\n\ndef plot(data):\n    return fig\n';
    const after = 'import x\n\ndef plot(data):\n    data = data[data.y == 1]\n    ax.set_yscale("log")\n    return fig\n';
    const diff = lineDiff(before, after);
    assert.equal(diff.filter((l) => l.kind !== 'added').map((l) => l.text).join('\n'), before);
    assert.equal(diff.filter((l) => l.kind !== 'removed').map((l) => l.text).join('\n'), after);
    assert.equal(diff.filter((l) => l.kind === 'added').length, 2);
  });
});
