import assert from 'node:assert/strict';
import { summaryActionCommand } from '../../../src/panels/summaryActions';
import { recommendationSteps, sparkline, summaryRows } from '../../../src/views/summaryTable';
import { goal, label, recommendations, summary } from '../panels/fixtures';

describe('views: dataset summary shaping', () => {
  it('gives one row per column with its missing share and sparkline', () => {
    const rows = summaryRows(summary);
    assert.deepEqual(rows.map((r) => r.column), ['age', 'city', 'churn']);
    assert.equal(rows[0].missing, 10);
    assert.equal(rows[0].missingShare, 0.05);
    assert.equal(rows[2].missing, 0, 'a column absent from missing_values has none missing');
    assert.equal(rows[0].sparkline.kind, 'range');
    assert.equal(rows[1].sparkline.kind, 'share');
  });

  it('places the mean and a one-std band between min and max', () => {
    const line = sparkline({ min: 20, max: 70, mean: 40, std: 10, num_unique_values: 60 }, 200, 0);
    assert.equal(line.kind, 'range');
    if (line.kind !== 'range') return;
    assert.ok(Math.abs(line.mean - 0.4) < 1e-12);
    assert.ok(Math.abs(line.bandLow - 0.2) < 1e-12);
    assert.ok(Math.abs(line.bandHigh - 0.6) < 1e-12);
    const clamped = sparkline({ min: 0, max: 10, mean: 1, std: 50, num_unique_values: 3 }, 10, 0);
    assert.ok(clamped.kind === 'range' && clamped.bandLow === 0 && clamped.bandHigh === 1);
  });

  it('shows distinct and missing shares for columns without a numeric range', () => {
    const line = sparkline({ num_unique_values: 20, min: 'a', max: 'z' }, 200, 50);
    assert.deepEqual(line, { kind: 'share', distinct: 0.1, missing: 0.25, description: '20 distinct values; 50 missing' });
    assert.deepEqual(sparkline({ num_unique_values: 0 }, 0, 0), { kind: 'share', distinct: 0, missing: 0, description: '0 distinct values; 0 missing' });
  });

  it('collects the chosen recommendations\u2019 steps in order', () => {
    assert.deepEqual(recommendationSteps(recommendations, new Set([1, 0])), [recommendations[0].step, recommendations[1].step]);
    assert.deepEqual(recommendationSteps(recommendations, new Set([1])), [recommendations[1].step]);
    assert.deepEqual(recommendationSteps(recommendations, new Set()), []);
  });

  it('maps each action to its command with the summary', () => {
    const args = { summary };
    assert.deepEqual(summaryActionCommand(args, { action: 'trainWithLabel', label }), ['xmodels.autotrain.trainWithLabel', { summary, label }]);
    assert.deepEqual(summaryActionCommand(args, { action: 'visualizeGoal', goal }), ['xmodels.autotrain.visualizeGoal', { summary, goal }]);
    const steps = [recommendations[0].step];
    assert.deepEqual(summaryActionCommand(args, { action: 'createPreprocessor', steps }), ['xmodels.preprocessors.createFromSteps', { summary, steps }]);
    const local = { summary, dataPath: '/data/customers.csv' };
    assert.deepEqual(summaryActionCommand(local, { action: 'visualizeGoal', goal }), ['xmodels.autotrain.visualizeGoal', { summary, goal, dataPath: '/data/customers.csv' }], 'chart code learns where the file is');
    assert.deepEqual(summaryActionCommand(local, { action: 'trainWithLabel', label }), ['xmodels.autotrain.trainWithLabel', { summary, label }]);
  });
});
