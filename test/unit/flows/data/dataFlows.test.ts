import assert from 'node:assert/strict';
import type { Dataset } from '../../../../src/contract';
import type { DatasetSummary } from '../../../../src/contract/autotrain';
import { parseSettings } from '../../../../src/common/settingsSchema';
import { askDataConnection, connectionNameProblem } from '../../../../src/flows/data/addConnectionFlow';
import { askQuery, queryProblem } from '../../../../src/flows/data/queryFlow';
import { sampleFromSummary, sourceTrainingData, tableDatasetRequest } from '../../../../src/flows/data/sourceTraining';
import { askNewModel } from '../../../../src/flows/train/trainFlow';
import { ScriptedPrompter } from '../../prompts/scriptedPrompter';

describe('add data connection flow', () => {
  it('asks a name, then the URL, with Back keeping the name typed', async () => {
    const prompter = new ScriptedPrompter([
      { id: 'name', reply: { text: ' shop ' } },
      { id: 'url', reply: 'back' },
      { id: 'name', reply: 'accept' },
      { id: 'url', reply: { text: 'duckdb:///srv/shop.db' } },
    ]);
    assert.deepEqual(await askDataConnection(prompter, ['crm']), { name: 'shop', url: 'duckdb:///srv/shop.db' });
    assert.deepEqual(prompter.prompts.map((p) => [p.id, p.position.step, p.position.canGoBack, p.value]), [
      ['name', 1, false, ''], ['url', 2, true, ''], ['name', 1, false, 'shop'], ['url', 2, true, ''],
    ]);
  });

  it('rejects a URL of the wrong shape before anything is sent', async () => {
    const prompter = new ScriptedPrompter([{ id: 'name', reply: { text: 'shop' } }, { id: 'url', reply: { text: 'duckdb://shop.db' } }]);
    await assert.rejects(askDataConnection(prompter, []), /absolute path after duckdb:\/\//);
  });

  it('ends quietly when a prompt is dismissed', async () => {
    assert.equal(await askDataConnection(new ScriptedPrompter([{ id: 'name', reply: 'cancel' }]), []), undefined);
  });

  it('checks names as the service does, and refuses one already in use', () => {
    assert.equal(connectionNameProblem('warehouse_2', ['shop']), undefined);
    assert.match(connectionNameProblem('', []) ?? '', /^Enter a name/);
    assert.match(connectionNameProblem('2shop', []) ?? '', /^Start with a letter/);
    assert.match(connectionNameProblem('my shop', []) ?? '', /no spaces/);
    assert.match(connectionNameProblem('shop', ['shop']) ?? '', /already a connection named shop/);
  });
});

describe('train from a query flow', () => {
  it('takes one SELECT or WITH statement, without its final semicolon', async () => {
    const prompter = new ScriptedPrompter([{ id: 'query', reply: { text: ' SELECT * FROM main.penguins WHERE year > 2008; ' } }]);
    assert.equal(await askQuery(prompter, 'shop'), 'SELECT * FROM main.penguins WHERE year > 2008');
    assert.equal(prompter.prompts[0].position.title, 'Train from a query of shop');
    assert.equal(queryProblem('with t as (select 1) select * from t'), undefined);
    assert.match(queryProblem('DELETE FROM main.penguins') ?? '', /^Start with SELECT or WITH/);
    assert.match(queryProblem('SELECT 1; DROP TABLE x') ?? '', /one statement only/);
    assert.match(queryProblem('  ') ?? '', /^Enter a SELECT statement/);
  });
});

/** What the service's summary of the penguins table says (all rows), trimmed to what the flow reads. */
function penguinsSummary(): DatasetSummary {
  const field = (column: string, dtype: DatasetSummary['dtypes'][string], unique: number, samples: (string | number)[]) => ({
    column, properties: { dtype, samples, num_unique_values: unique, semantic_type: '', description: '' },
  });
  return {
    dataset_id: 'd-1', name: 'penguins', file_name: 'penguins', dataset_description: '', rows: 300, field_names: [],
    columns: ['id', 'species', 'island', 'bill_length', 'sex', 'comment'],
    dtypes: { id: 'number', species: 'category', island: 'category', bill_length: 'number', sex: 'category', comment: 'string' },
    missing_values: { id: 0, species: 0, island: 0, bill_length: 2, sex: 9, comment: 300 },
    fields: [
      field('id', 'number', 300, [1, 2, 3]), field('species', 'category', 3, ['Adelie', 'Gentoo', 'Chinstrap']),
      field('island', 'category', 5, ['Biscoe', 'Dream', 'Torgersen']), field('bill_length', 'number', 160, [39.1, 39.5, 40.3]),
      field('sex', 'category', 2, ['MALE', 'FEMALE']), field('comment', 'string', 0, []),
    ],
  };
}

const dataset: Dataset = { dataset_id: 'd-1', name: 'penguins', rows: 300, columns: [], size_bytes: 0, created: '2026-01-01T00:00:00Z', source: { connection: 'shop', table: 'main.penguins' } };

describe('training on a database table', () => {
  it('registers the table itself when every column can be used, else a query of the usable columns', () => {
    const usable = [{ name: 'species', type: 'VARCHAR', usable: true }, { name: 'bill "mm"', type: 'DOUBLE', usable: true }];
    assert.deepEqual(tableDatasetRequest('shop', { schema: 'main', table: 'penguins' }, usable), {
      name: 'penguins', source: { connection: 'shop', table: 'main.penguins' },
    });
    assert.deepEqual(tableDatasetRequest('shop', { schema: 'main', table: 'penguins' }, [...usable, { name: 'tags', type: 'VARCHAR[]', usable: false }]), {
      name: 'penguins', source: { connection: 'shop', query: 'SELECT "species", "bill ""mm""" FROM "main"."penguins"' },
    });
  });

  it('profiles the columns from the service’s summary of all rows', () => {
    const { columns, rowsSampled } = sampleFromSummary(penguinsSummary());
    assert.equal(rowsSampled, 300);
    assert.deepEqual(columns.map((c) => [c.name, c.kind, c.distinct, c.missing, c.classCount]), [
      ['id', 'number', 300, 0, undefined],
      ['species', 'category', 3, 0, 3],
      ['island', 'category', 5, 0, 5],
      ['bill_length', 'number', 160, 2, undefined],
      ['sex', 'binary', 2, 9, undefined],
      ['comment', 'empty', 0, 300, undefined],
    ]);
    assert.deepEqual(columns[1].samples, ['Adelie', 'Gentoo', 'Chinstrap']);
  });

  it('runs the train flow on the data set: a multiclass target by its class count, and a request by dataset id', async () => {
    const prompter = new ScriptedPrompter([
      { id: 'target', reply: { pick: '$(star-full) species' } },
      { id: 'modelType', reply: 'accept' },
      { id: 'partition', reply: 'accept' },
      { id: 'drop', reply: 'accept' },
      { id: 'name', reply: 'accept' },
      { id: 'parameters', reply: 'accept' },
    ]);
    const answer = await askNewModel(prompter, sourceTrainingData(dataset, penguinsSummary()), parseSettings({}).settings.training, async () => []);
    const request = answer?.request;
    assert.equal(prompter.prompts[0].position.title, 'Train a model from shop: main.penguins');
    assert.deepEqual(prompter.prompts[1].labels, ['Classifier (3 classes)', 'Regressor']);
    assert.deepEqual(prompter.prompts[3].picked, ['comment'], 'the empty column is left out');
    assert.ok(request);
    assert.equal(request.dataset_id, 'd-1');
    assert.equal(request.file_path, undefined, 'the rows are not uploaded');
    assert.equal(request.target_column, 'species');
    assert.equal(request.model_type, 'classifier');
    assert.equal(request.model_name, 'penguins');
    assert.equal(request.model_description, 'Trained from shop: main.penguins');
  });
});
