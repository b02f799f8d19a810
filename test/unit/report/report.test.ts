import assert from 'node:assert/strict';
import type { CategoricalBin, NumericBin } from '../../../src/contract';
import { categorySeries, numericSeries } from '../../../src/views/profileSeries';
import { reportFileName, splitImages } from '../../../src/report';
import { categoryChart, MAX_CATEGORY_BARS, stepChart } from '../../../src/report/charts/steps';
import { svgMarkup, type Chart } from '../../../src/report/charts/svg';
import { renderMarkdown } from '../../../src/report/markdown';

describe('model report: charts and files', () => {
  it('draws a numeric feature as one step per bin and its missing-value bin beside them, dashed when no row was missing', () => {
    const bins: NumericBin[] = [
      { lower: null, upper: 1, score: -0.5, mean: null, freq: 0.2 },
      { lower: 1, upper: 2, score: 0.25, mean: null, freq: 0.5 },
      { lower: 2, upper: null, score: 1, mean: null, freq: 0.3 },
      { score: 0.125, mean: null, freq: 0, missing: true },
    ];
    const chart = stepChart(numericSeries('age', bins), 'Steps of age');
    const path = /<path d="([^"]+)"/.exec(chart.body)?.[1] ?? '';
    assert.equal((path.match(/H/g) ?? []).length, 3, path);
    assert.equal((path.match(/V/g) ?? []).length, 2, path);
    assert.deepEqual([...chart.body.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]), [
      '&lt; 1: contribution -0.5 (20.0% of training rows)',
      '1 to 2: contribution +0.25 (50.0% of training rows)',
      '≥ 2: contribution +1 (30.0% of training rows)',
      'missing value: contribution +0.125 (no training row was missing)',
    ]);
    assert.match(chart.body, /stroke-dasharray="3 3"/);
  });

  it('draws the categories with the most rows when there are too many, and the missing value last', () => {
    const bins: CategoricalBin[] = Array.from({ length: 70 }, (_, i) => ({ category: `c${i}`, score: i % 2 ? 1 : -1, mean: null, freq: i / 2415 }));
    bins.push({ category: null, score: 0.5, mean: null, freq: 0.01, missing: true });
    const chart = categoryChart(categorySeries('city', bins), 'Steps of city');
    const labels = [...chart.body.matchAll(/<title>([^:<]*):/g)].map((m) => m[1]);
    assert.equal(labels.length, MAX_CATEGORY_BARS + 1);
    assert.deepEqual(labels.slice(0, 2), ['c69', 'c68']);
    assert.equal(labels.at(-1), 'missing value');
  });

  it('reportFileName names the model and version, without a character any file system refuses', () => {
    assert.equal(reportFileName('churn', 3, 'html'), 'churn-v3-report.html');
    assert.equal(reportFileName('a/b\\c:d*e?f"g<h>i|j', 1, 'markdown'), 'a_b_c_d_e_f_g_h_i_j-v1-report.md');
    assert.equal(reportFileName('..', 2, 'html'), 'model-v2-report.html');
    assert.equal(reportFileName('x\n\u202ey ', 1, 'html'), 'x__y-v1-report.html');
    assert.equal(reportFileName('m'.repeat(300), 1, 'html').length, 80 + '-v1-report.html'.length);
  });

  it('splitImages writes each data: image of a Markdown report as an SVG file, linked relative to it', () => {
    const chart = (title: string): Chart => ({ width: 10, height: 10, title, body: '<rect x="0" y="0" width="1" height="1"></rect>' });
    const charts = [chart('Steps of [a] (b) é'), chart('second')];
    const markdown = renderMarkdown({
      title: 't',
      subtitle: 's',
      contents: [],
      blocks: charts.map((c) => ({ kind: 'figure', chart: c, caption: 'c' })),
    });
    const { markdown: linked, images } = splitImages(markdown, 'my report (1)-figures');
    assert.deepEqual(images.map((i) => i.path), ['my report (1)-figures/figure-1.svg', 'my report (1)-figures/figure-2.svg']);
    assert.deepEqual(images.map((i) => i.svg), charts.map((c) => svgMarkup(c, true)));
    assert.ok(linked.includes('![Steps of \\[a\\] \\(b\\) é](my%20report%20%281%29-figures/figure-1.svg)'), linked);
    assert.doesNotMatch(linked, /data:/);
  });
});
