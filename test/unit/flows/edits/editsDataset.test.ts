import assert from 'node:assert/strict';
import type { Dataset } from '../../../../src/contract/datasets';
import { askEditsDataset } from '../../../../src/flows/edits/editsDataset';
import { ScriptedPrompter } from '../../prompts/scriptedPrompter';

const dataset = (name: string, columns: string[], created: string): Dataset => ({
  dataset_id: `ds-${name}`, name, rows: 120, columns, size_bytes: 1000, created,
});
const datasets = Promise.resolve([
  dataset('old.csv', ['age', 'churn'], '2026-01-01T00:00:00Z'),
  dataset('other.csv', ['age', 'price'], '2026-03-01T00:00:00Z'),
  dataset('new.csv', ['age', 'churn', 'city'], '2026-02-01T00:00:00Z'),
]);
const subject = { title: 'Save the edits of churn v2 as a new version', target: 'churn' };

describe('flows: the rows a version without a dataset is saved with', () => {
  it('offers the datasets with the target column, newest first, then a file', async () => {
    const prompter = new ScriptedPrompter([{ id: 'editsDataset', reply: { pick: 'new.csv' } }]);
    assert.deepEqual(await askEditsDataset(prompter, subject, datasets), { datasetId: 'ds-new.csv' });
    assert.deepEqual(prompter.prompts[0].labels, ['new.csv', 'old.csv', 'Choose a CSV or Parquet file…']);
    assert.equal(prompter.prompts[0].position.title, subject.title);
  });

  it('takes a file to upload, and nothing when either question is dismissed', async () => {
    const file = new ScriptedPrompter([{ id: 'editsDataset', reply: { pick: 'Choose a CSV or Parquet file…' } }, { id: 'file', reply: { file: '/data/churn.parquet' } }]);
    assert.deepEqual(await askEditsDataset(file, subject, datasets), { filePath: '/data/churn.parquet' });
    const noFile = new ScriptedPrompter([{ id: 'editsDataset', reply: { pick: 'Choose a CSV or Parquet file…' } }, { id: 'file', reply: 'cancel' }]);
    assert.equal(await askEditsDataset(noFile, subject, datasets), undefined);
    assert.equal(await askEditsDataset(new ScriptedPrompter([{ id: 'editsDataset', reply: 'cancel' }]), subject, datasets), undefined);
  });
});
