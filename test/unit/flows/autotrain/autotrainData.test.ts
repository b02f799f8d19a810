import assert from 'node:assert/strict';
import type { AutotrainApi } from '../../../../src/client';
import { summarizeCsv } from '../../../../src/flows/autotrain/autotrainData';
import { churnSummary } from './fixtures';

describe('wizard data loading', () => {
  it('reports the summary’s own warnings (e.g. an LLM answer replaced by rules) and returns the summary', async () => {
    const summary = { ...churnSummary(), warnings: ['The model answered invalid JSON; the summary comes from rules.'] };
    const sent: unknown[] = [];
    const api = {
      summarizeDataset: async (params: unknown) => {
        sent.push(params);
        return summary;
      },
    } as unknown as Pick<AutotrainApi, 'summarizeDataset'>;
    const reported: [string, readonly string[]][] = [];
    const result = await summarizeCsv(api, '/tmp/churn.csv', new AbortController().signal, (what, w) => reported.push([what, w]), { provider: 'openai' });
    assert.equal(result, summary);
    assert.deepEqual(sent, [{ file_path: '/tmp/churn.csv', textgen_config: { provider: 'openai' } }]);
    assert.deepEqual(reported, [['summary', summary.warnings]]);
  });
});
