import assert from 'node:assert/strict';
import { chartPreview } from '../../../src/views/chartPreview';

const base = { title: 'T', columns: ['a', 'b'] };

describe('views: visualization preview shaping', () => {
  it('draws a histogram as bars labelled by range', () => {
    const preview = chartPreview({ kind: 'histogram', ...base, x: 'a', bins: [{ lower: 0, upper: 5, count: 2 }, { lower: 5, upper: 10, count: 4 }] });
    assert.equal(preview.kind, 'chart');
    if (preview.kind !== 'chart') return;
    assert.equal(preview.type, 'bar');
    assert.deepEqual(preview.labels, ['0 to 5', '5 to 10']);
    assert.deepEqual(preview.datasets[0].data, [2, 4]);
    assert.equal(preview.xTitle, 'a');
  });

  it('names mean bars after the aggregated column', () => {
    const preview = chartPreview({ kind: 'bar', ...base, x: 'a', y: 'b', aggregate: 'mean', bars: [{ label: 'x', value: 2 }] });
    assert.ok(preview.kind === 'chart' && preview.yTitle === 'Mean of b' && preview.datasets[0].label === 'Mean of b');
    const counts = chartPreview({ kind: 'bar', ...base, x: 'a', y: null, aggregate: 'count', bars: [{ label: 'x', value: 2 }] });
    assert.ok(counts.kind === 'chart' && counts.yTitle === 'Count');
    const shares = chartPreview({ kind: 'bar', ...base, x: 'a', y: null, aggregate: 'share', bars: [{ label: 'x', value: 62.5 }] });
    assert.ok(shares.kind === 'chart' && shares.yTitle === '% of rows' && shares.datasets[0].data[0] === 62.5);
  });

  it('keeps scatter points and line points in order', () => {
    const scatter = chartPreview({ kind: 'scatter', ...base, x: 'a', y: 'b', points: [{ x: 1, y: 2 }] });
    assert.ok(scatter.kind === 'chart' && scatter.type === 'scatter');
    assert.deepEqual(scatter.kind === 'chart' && scatter.datasets[0].data, [{ x: 1, y: 2 }]);
    const line = chartPreview({ kind: 'line', ...base, x: 'a', y: 'b', points: [{ x: '2024-01', y: 3 }, { x: '2024-02', y: 5 }] });
    assert.ok(line.kind === 'chart' && line.type === 'line');
    assert.deepEqual(line.kind === 'chart' && line.labels, ['2024-01', '2024-02']);
  });

  it('draws a box plot as floating bars for the range, the quartiles and the median', () => {
    const preview = chartPreview({
      kind: 'box', ...base, x: 'a', y: 'b',
      groups: [{ label: 'g', n: 9, min: 1, q1: 2, median: 3, q3: 4, max: 5 }],
    });
    assert.ok(preview.kind === 'chart');
    if (preview.kind !== 'chart') return;
    assert.deepEqual(preview.datasets.map((d) => d.data[0]), [[1, 5], [2, 4], [3, 3]]);
  });

  it('draws a heatmap as a table scaled between its finite extremes', () => {
    const preview = chartPreview({
      kind: 'heatmap', ...base, value: 'correlation', x_labels: ['a', 'b'], y_labels: ['a', 'b'], matrix: [[1, -0.5], [null, 0.25]],
    });
    assert.deepEqual(preview, {
      kind: 'heatmap', title: 'T', xLabels: ['a', 'b'], yLabels: ['a', 'b'], cells: [[1, -0.5], [null, 0.25]], min: -0.5, max: 1,
    });
  });

  it('explains an empty preview instead of drawing nothing', () => {
    for (const spec of [
      { kind: 'histogram' as const, ...base, x: 'a', bins: [] },
      { kind: 'scatter' as const, ...base, x: 'a', y: 'b', points: [] },
      { kind: 'heatmap' as const, ...base, value: 'count' as const, x_labels: ['a'], y_labels: ['a'], matrix: [[null]] },
    ]) {
      const preview = chartPreview(spec);
      assert.equal(preview.kind, 'empty');
      assert.match(preview.kind === 'empty' ? preview.reason : '', /dataset rows/);
    }
  });
});
