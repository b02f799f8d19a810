import assert from 'node:assert/strict';
import type { Insights } from '../../../../src/contract/autotrain';
import { formatEvidenceValue, renderInsightsMarkdown } from '../../../../src/flows/autotrain/insightsMarkdown';
import { churnGoals } from './fixtures';

const insights: Insights = {
  goal: churnGoals[0],
  source: 'rules',
  warnings: ['Computed from the summary only.'],
  insights: [
    {
      title: 'Tenure is right-skewed', detail: 'Most customers are new.', columns: ['tenure'],
      evidence: { mean: 32.371428, median: 29, 'share|outliers': 0.05, unit: 'months', peak: null },
    },
    { title: 'No groups', detail: 'Nothing to compare.', columns: [], evidence: {} },
  ],
};

describe('wizard insights markdown', () => {
  it('renders every insight with its columns and evidence numbers', () => {
    const md = renderInsightsMarkdown(insights, 'churn.csv');
    assert.equal(md.split('\n')[0], '# Insights: How is tenure distributed?');
    assert.match(md, /Dataset `churn\.csv` · chart: histogram of tenure · answered by rules/);
    assert.match(md, /> Warning: Computed from the summary only\./);
    assert.match(md, /## Tenure is right-skewed\n\nMost customers are new\.\n\nColumns: `tenure`/);
    assert.match(md, /\| mean \| 32\.3714 \|/);
    assert.match(md, /\| median \| 29 \|/);
    assert.match(md, /\| share\\\|outliers \| 0\.05 \|/);
    assert.match(md, /\| peak \| — \|/);
    assert.match(md, /## No groups\n\nNothing to compare\.\n/);
    assert.equal((md.match(/\| Evidence \| Value \|/g) ?? []).length, 1);
  });

  it('says so when there is no insight', () => {
    const md = renderInsightsMarkdown({ ...insights, insights: [], warnings: [] }, 'churn.csv');
    assert.match(md, /No insight could be computed for this question\./);
  });

  it('formats evidence values', () => {
    assert.equal(formatEvidenceValue(1 / 3), '0.3333');
    assert.equal(formatEvidenceValue(12), '12');
    assert.equal(formatEvidenceValue('high'), 'high');
    assert.equal(formatEvidenceValue(null), '—');
  });
});
