import assert from 'node:assert/strict';
import { distributionBars, healthFigures, healthWarnings } from '../../../src/views/featureHealth';
import { featureEntry } from '../panels/fixtures';

describe('views: feature info shaping', () => {
  it('has no warning for a healthy feature', () => {
    assert.deepEqual(healthWarnings(featureEntry()), []);
  });

  it('warns about missing values, skew, cardinality, imbalance and mixed values, errors first', () => {
    const warnings = healthWarnings(
      featureEntry({
        type: 'categorical',
        health_info: { missing_pct: 0.6, skewness: -3.2, cardinality: 120, category_imbalance: 0.95, mixed_case: 0.1, mixed_type: 0.2 },
      }),
    );
    assert.equal(warnings[0].severity, 'error');
    assert.equal(warnings[0].message, '60.0% of values are missing.');
    const text = warnings.map((w) => w.message).join('\n');
    assert.match(text, /High cardinality: 120 distinct values/);
    assert.match(text, /covers 95\.0% of rows/);
    assert.match(text, /skewness -3\.2/);
    assert.match(text, /Mixed value types/);
    assert.match(text, /letter case/);
    assert.equal(warnings.length, 6);
  });

  it('only warns about a missing share between the warning and error limits', () => {
    const [warning] = healthWarnings(featureEntry({ health_info: { missing_pct: 0.25 } }));
    assert.deepEqual(warning, { severity: 'warning', message: '25.0% of values are missing.' });
    assert.equal(healthWarnings(featureEntry({ type: 'numeric', health_info: { missing_pct: 0, cardinality: 500 } })).length, 0);
  });

  it('formats the figures a feature reports, in order', () => {
    assert.deepEqual(healthFigures(featureEntry()), [
      { label: 'Missing', value: '0.0%' },
      { label: 'Min', value: '18' },
      { label: 'Max', value: '90' },
      { label: 'Mean', value: '41.5' },
      { label: 'Skewness', value: '0.3' },
    ]);
    assert.deepEqual(healthFigures(featureEntry({ health_info: { missing_pct: 0.1, mode: 'Paris', min: null } })), [
      { label: 'Missing', value: '10.0%' },
      { label: 'Mode', value: 'Paris' },
    ]);
  });

  it('labels histogram bars by range and keeps the top categories plus an Other bar', () => {
    assert.deepEqual(distributionBars({ kind: 'histogram', edges: [32.1, 33.2857, 34.4714], counts: [1, 4] }).labels, [
      '32.1 to 33.3',
      '33.3 to 34.5',
    ]);
    assert.deepEqual(distributionBars({ kind: 'histogram', edges: [0, 10, 20], counts: [3, 7] }), {
      labels: ['0 to 10', '10 to 20'],
      counts: [3, 7],
    });
    const values = [
      { value: 'a', count: 1 },
      { value: 'b', count: 5 },
      { value: 'c', count: 3 },
      { value: 'd', count: 2 },
    ];
    assert.deepEqual(distributionBars({ kind: 'categories', values }, 2), { labels: ['b', 'c', 'Other (2)'], counts: [5, 3, 3] });
  });
});
