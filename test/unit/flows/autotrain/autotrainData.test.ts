import assert from 'node:assert/strict';
import type { AutotrainApi } from '../../../../src/client';
import { summarizeCsv, summarizeDataset } from '../../../../src/flows/autotrain/autotrainData';
import { datasetRefOf } from '../../../../src/flows/autotrain/commandArgs';
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

  it('summarizes a data set the service holds by its id (a database table), with the same warnings', async () => {
    const summary = { ...churnSummary(), warnings: ['rules only'] };
    const sent: unknown[] = [];
    const api = {
      summarizeByDatasetId: async (params: unknown) => {
        sent.push(params);
        return summary;
      },
    } as unknown as Pick<AutotrainApi, 'summarizeByDatasetId'>;
    const reported: [string, readonly string[]][] = [];
    assert.equal(await summarizeDataset(api, 'd-7', new AbortController().signal, (what, w) => reported.push([what, w]), {}), summary);
    assert.deepEqual(sent, [{ dataset_id: 'd-7', textgen_config: {} }]);
    assert.deepEqual(reported, [['summary', ['rules only']]]);
  });

  it('takes a data set argument by its id and name, and nothing else for one', () => {
    assert.deepEqual(datasetRefOf({ dataset_id: 'd-7', name: 'penguins', rows: 344 }), { dataset_id: 'd-7', name: 'penguins' });
    assert.equal(datasetRefOf({ fsPath: '/tmp/a.csv', scheme: 'file' }), undefined);
    assert.equal(datasetRefOf(undefined), undefined);
  });
});
