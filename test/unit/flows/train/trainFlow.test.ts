import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelInfo } from '../../../../src/contract';
import { sniffCsv } from '../../../../src/common/csvColumns';
import { parseSettings } from '../../../../src/common/settingsSchema';
import { askNewModel, askNewVersion, fileTrainingData, type TrainingData } from '../../../../src/flows/train/trainFlow';
import { ScriptedPrompter, type ScriptedAnswer } from '../../prompts/scriptedPrompter';

function churnCsv(): TrainingData {
  const rows = Array.from({ length: 40 }, (_, i) => `c${i},${i % 24},${['basic', 'pro', 'team'][i % 3]},${i % 2 ? 'yes' : 'no'}`);
  return fileTrainingData('/data/churn.csv', sniffCsv(['customer_id,tenure,plan,churned', ...rows].join('\n')));
}

const training = parseSettings({}).settings.training;

/** The penguins sample: Sex is MALE, FEMALE, one '.' and some empty. */
function penguins(): TrainingData {
  return fileTrainingData('/data/penguins.csv', sniffCsv(readFileSync(join(__dirname, '../../../../media/datasets/penguins.csv'), 'utf8')));
}
const accept = (...ids: string[]): ScriptedAnswer[] => ids.map((id) => ({ id, reply: 'accept' }));
const noModels = async (): Promise<ModelInfo[]> => [];

describe('train flow', () => {
  it('asks target, model type, partitions, dropped columns, name and parameters, and sends the answers', async () => {
    const prompter = new ScriptedPrompter(accept('target', 'modelType', 'partition', 'drop', 'name', 'parameters'));
    const request = (await askNewModel(prompter, churnCsv(), training, noModels))?.request;
    assert.deepEqual(prompter.prompts.map((p) => [p.id, p.position.step, p.position.totalSteps, p.position.canGoBack]), [
      ['target', 1, 6, false], ['modelType', 2, 6, true], ['partition', 3, 6, true],
      ['drop', 4, 6, true], ['name', 5, 6, true], ['parameters', 6, 6, true],
    ]);
    assert.equal(prompter.prompts[0].position.title, 'Train a model from churn.csv');
    assert.equal(prompter.prompts[0].picked[0], '$(star-full) churned', 'the suggested target is listed first and active');
    assert.ok(request);
    assert.equal(request.target_column, 'churned');
    assert.equal(request.model_type, 'classifier');
    assert.equal(request.file_path, '/data/churn.csv');
    assert.deepEqual(request.drop_columns ?? [], prompter.prompts[3].picked, 'accepting keeps the ticked columns');
    assert.equal(request.partition_on, undefined);
    assert.equal(request.model_name, 'churn');
    assert.equal(request.model_description, 'Trained from churn.csv');
    assert.equal(request.method, training.method);
  });

  it('offers the name of a CSV or Parquet file without its extension, whatever its case', () => {
    const sample = churnCsv().sample;
    const names = ['fair.parquet', 'FAIR.PARQUET', 'loans.csv', 'loans.CSV', 'archive.csv.gz', 'plain'].map((file) => fileTrainingData(`/data/${file}`, sample).suggestedName);
    assert.deepEqual(names, ['fair', 'FAIR', 'loans', 'loans', 'archive.csv.gz', 'plain']);
  });

  it('goes Back to the target keeping the answer, and a new target changes the suggested model type', async () => {
    const prompter = new ScriptedPrompter([
      { id: 'target', reply: { pick: 'tenure' } },
      { id: 'modelType', reply: 'back' },
      { id: 'target', reply: 'accept' },
      { id: 'modelType', reply: 'accept' },
      { id: 'partition', reply: { pick: 'plan' } },
      { id: 'drop', reply: { pick: [] } },
      { id: 'name', reply: { text: '  tenure model ' } },
      { id: 'parameters', reply: { pick: 'max_leaves' } },
      { id: 'max_leaves', reply: { text: '4' } },
      { id: 'parameters', reply: 'accept' },
    ]);
    const request = (await askNewModel(prompter, churnCsv(), training, noModels))?.request;
    assert.deepEqual(prompter.prompts[2].picked, ['tenure'], 'the target chosen before Back is active again');
    assert.equal(prompter.prompts[3].labels[0], 'Regressor', 'the suggested model type comes first');
    assert.ok(request);
    assert.equal(request.target_column, 'tenure');
    assert.equal(request.model_type, 'regressor');
    assert.equal(request.partition_on, 'plan');
    assert.equal(request.drop_columns, undefined);
    assert.equal(request.model_name, 'tenure model');
    assert.equal(request.max_leaves, 4);
  });

  it('offers to leave out the rows of a class too rare to train, saying which and how many, and asks for it', async () => {
    const prompter = new ScriptedPrompter([
      { id: 'target', reply: { pick: 'Sex' } },
      { id: 'modelType', reply: 'accept' },
      { id: 'rareClasses', reply: 'accept' },
      ...accept('partition', 'drop', 'name', 'parameters'),
    ]);
    const request = (await askNewModel(prompter, penguins(), training, noModels))?.request;
    const rare = prompter.prompts[2];
    assert.deepEqual([rare.id, rare.position.step, rare.position.totalSteps, rare.position.canGoBack], ['rareClasses', 2, 6, true]);
    assert.equal(rare.placeholder, "Sex has classes with few of the 344 rows read: '.' (1 row). Every class needs 2 training rows.");
    assert.deepEqual(rare.labels, ['Leave out 1 row', 'Keep every class']);
    assert.deepEqual(rare.picked, ['Leave out 1 row'], 'leaving them out is the default');
    assert.equal(request?.rare_classes, 'drop');
    assert.equal(request?.target_column, 'Sex');
  });

  it('keeps every class when asked to, remembers the answer on Back, and asks nothing for a target without rare classes', async () => {
    const keep = new ScriptedPrompter([
      { id: 'target', reply: { pick: 'Sex' } },
      { id: 'modelType', reply: 'accept' },
      { id: 'rareClasses', reply: { pick: 'Keep every class' } },
      { id: 'partition', reply: 'back' },
      { id: 'rareClasses', reply: 'accept' },
      ...accept('partition', 'drop', 'name', 'parameters'),
    ]);
    const kept = (await askNewModel(keep, penguins(), training, noModels))?.request;
    assert.deepEqual(keep.prompts[4].picked, ['Keep every class']);
    assert.equal(kept?.rare_classes, undefined);
    const species = new ScriptedPrompter([...accept('target', 'modelType', 'partition', 'drop', 'name', 'parameters')]);
    const request = (await askNewModel(species, penguins(), training, noModels))?.request;
    assert.deepEqual([request?.target_column, request?.rare_classes], ['Species', undefined]);
  });

  it('ends quietly when a prompt is dismissed', async () => {
    const prompter = new ScriptedPrompter([...accept('target', 'modelType', 'partition', 'drop'), { id: 'name', reply: 'cancel' }]);
    assert.equal(await askNewModel(prompter, churnCsv(), training, noModels), undefined);
    assert.equal(prompter.remaining, 0);
  });

  it('shows the validation messages of the name and of a parameter', async () => {
    const blank = new ScriptedPrompter([...accept('target', 'modelType', 'partition', 'drop'), { id: 'name', reply: { text: ' ' } }]);
    await assert.rejects(askNewModel(blank, churnCsv(), training, noModels), /Enter a name for the model\./);
    assert.equal(blank.prompts[4].validation, 'Enter a name for the model.');

    const leaves = new ScriptedPrompter([
      ...accept('target', 'modelType', 'partition', 'drop', 'name'),
      { id: 'parameters', reply: { pick: 'max_leaves' } },
      { id: 'max_leaves', reply: { text: '2.5' } },
    ]);
    await assert.rejects(askNewModel(leaves, churnCsv(), training, noModels));
    assert.equal(leaves.prompts[6].validation, 'max_leaves must be a whole number between 2 and 64 (got 2.5).');
  });

  it('refuses to drop every feature column', async () => {
    const prompter = new ScriptedPrompter([...accept('target', 'modelType', 'partition'), { id: 'drop', reply: { pick: ['customer_id', 'tenure', 'plan'] } }]);
    await assert.rejects(askNewModel(prompter, churnCsv(), training, noModels), /At least one feature column must remain/);
  });

  describe('a name the team already has', () => {
    const churn = { model_id: 'm-1', model_name: 'churn', target_name: 'churned', model_type: 'binary_classification', number_of_versions: 2 } as ModelInfo;
    const other = { model_id: 'm-2', model_name: 'other', target_name: 'plan', model_type: 'binary_classification', number_of_versions: 1 } as ModelInfo;
    let listed = 0;
    const teamModels = async () => {
      listed++;
      return [other, churn];
    };

    it('offers to add the new model as a new version of that model, which trains by its id', async () => {
      listed = 0;
      const prompter = new ScriptedPrompter([...accept('target', 'modelType', 'partition', 'drop', 'name'), { id: 'nameTaken', reply: 'accept' }, ...accept('parameters')]);
      const answer = await askNewModel(prompter, churnCsv(), training, teamModels);
      const taken = prompter.prompts[5];
      assert.equal(taken.id, 'nameTaken');
      assert.equal(taken.placeholder, 'A model named churn already exists in this team.');
      assert.deepEqual(taken.labels, ['Add as a new version of churn', 'Choose another name']);
      assert.deepEqual([taken.position.step, taken.position.totalSteps, taken.position.canGoBack], [5, 6, true]);
      assert.equal(prompter.prompts[6].position.title, 'New version of churn from churn.csv: parameters');
      assert.ok(answer);
      assert.equal(answer.modelName, 'churn');
      assert.equal(answer.request.model_id, 'm-1');
      assert.equal(answer.request.model_name, undefined, 'no second model of that name');
      assert.equal(answer.request.target_column, 'churned');
      assert.equal(listed, 1, 'the team\u2019s models are listed once the name is given');
    });

    it('goes back to the name to choose another, and a new name trains a new model', async () => {
      const prompter = new ScriptedPrompter([
        ...accept('target', 'modelType', 'partition', 'drop', 'name'),
        { id: 'nameTaken', reply: 'accept' },
        { id: 'parameters', reply: 'back' },
        { id: 'nameTaken', reply: { pick: 'Choose another name' } },
        { id: 'name', reply: { text: 'churn 2026' } },
        ...accept('parameters'),
      ]);
      const answer = await askNewModel(prompter, churnCsv(), training, teamModels);
      assert.equal(prompter.prompts[8].value, 'churn', 'the name box shows the name that was taken');
      assert.equal(prompter.prompts[9].position.title, 'Train a model from churn.csv: parameters');
      assert.ok(answer);
      assert.equal(answer.modelName, 'churn 2026');
      assert.equal(answer.request.model_name, 'churn 2026');
      assert.equal(answer.request.model_id, undefined, 'the version chosen before is forgotten');
    });

    it('only offers another name when the model of that name predicts another target, and says why', async () => {
      const prompter = new ScriptedPrompter([
        ...accept('target', 'modelType', 'partition', 'drop'),
        { id: 'name', reply: { text: 'other' } },
        { id: 'nameTaken', reply: 'accept' },
        { id: 'name', reply: 'cancel' },
      ]);
      assert.equal(await askNewModel(prompter, churnCsv(), training, teamModels), undefined);
      const taken = prompter.prompts[5];
      assert.deepEqual(taken.labels, ['Choose another name']);
      assert.equal(taken.placeholder, 'A model named other already exists in this team. It predicts plan as a classifier, so this model cannot be a version of it: choose another name.');
      assert.equal(prompter.remaining, 0);
    });
  });

  it('trains a new version with the model’s target and type, starting at the partition step', async () => {
    const model = { model_id: 'm-1', model_name: 'Churn', target_name: 'churned', model_type: 'binary_classification', partition_on: 'plan' } as ModelInfo;
    const prompter = new ScriptedPrompter(accept('partition', 'drop', 'parameters'));
    const request = await askNewVersion(prompter, churnCsv(), training, model);
    assert.deepEqual(prompter.prompts.map((p) => [p.id, p.position.step, p.position.totalSteps]), [['partition', 1, 3], ['drop', 2, 3], ['parameters', 3, 3]]);
    assert.equal(prompter.prompts[0].position.title, 'New version of Churn from churn.csv');
    assert.deepEqual(prompter.prompts[0].picked, ['plan']);
    assert.ok(request);
    assert.equal(request.model_id, 'm-1');
    assert.equal(request.model_name, undefined);
    assert.equal(request.target_column, 'churned');
    assert.equal(request.partition_on, 'plan');

    await assert.rejects(askNewVersion(new ScriptedPrompter([]), churnCsv(), training, { ...model, target_name: 'gone' }), /churn\.csv has no column gone, the target of Churn\./);
  });
});
