import assert from 'node:assert/strict';
import { XModelsClient, type CopyModelOptions, type CopyReport, type PlannedDataset } from '../../../../src/client';
import type { ModelInfo } from '../../../../src/contract';
import { copyModel, copyReportMarkdown, copySummary, formatSize, type CopyDestination, type CopyModelDeps } from '../../../../src/flows/copyModel/copyModelFlow';
import { churnCsv, startLocalService, type LocalService } from '../../client/localService';
import { ScriptedPrompter, type ScriptedAnswer } from '../../prompts/scriptedPrompter';

const model = { model_id: 'm-1', model_name: 'churn', target_name: 'churned', model_type: 'binary_classification', number_of_versions: 2 } as ModelInfo;
const theirModels = [
  { model_id: 't-1', model_name: 'churn', target_name: 'churned', model_type: 'binary_classification', number_of_versions: 3 },
  { model_id: 't-2', model_name: 'spend', target_name: 'monthly', model_type: 'regression', number_of_versions: 1 },
] as ModelInfo[];

const report: CopyReport = {
  source: { model_id: 'm-1', model_name: 'churn' },
  target: { model_id: 't-9', model_name: 'churn 2', created: true },
  versions: [],
  datasets: [],
  cancelled: false,
};

/** A copy source whose plan has two versions and the given datasets, and destinations that record their use. */
function fakeDeps(answers: ScriptedAnswer[], datasets: PlannedDataset[] = []) {
  const prompter = new ScriptedPrompter(answers);
  const calls: { destination: string; options: CopyModelOptions }[] = [];
  const events: string[] = [];
  const progress: string[] = [];
  const destination = (label: string, description: string): CopyDestination => ({
    label,
    description,
    open: async () => {
      events.push(`open ${label}`);
      return {
        client: { models: { listTeamModels: async () => theirModels } } as never,
        close: async () => void events.push(`close ${label}`),
      };
    },
  });
  const deps: CopyModelDeps = {
    prompter,
    source: {
      copyPlan: async () => ({ model, versions: [{ version_number: 1 }, { version_number: 2 }], datasets }) as never,
      copyTo: async (_target, modelId, options) => {
        assert.equal(modelId, 'm-1');
        calls.push({ destination: events[events.length - 1], options: { ...options, signal: undefined, onProgress: undefined } });
        options?.onProgress?.({ step: 1, steps: 2, message: 'v1 (train)' });
        return report;
      },
    },
    destinations: async () => [destination('Hosted service (xm.example.com)', 'team analysts'), destination('Local service', 'team research')],
    underProgress: (title, task) => {
      progress.push(title);
      return task(new AbortController().signal, (message) => progress.push(message));
    },
  };
  return { deps, prompter, calls, events, progress };
}

const twoDatasets: PlannedDataset[] = [
  { dataset_id: 'd-1', name: 'churn.csv', size_bytes: 1_200_000 },
  { dataset_id: 'd-2', name: 'more.parquet', size_bytes: 400_000 },
  { dataset_id: 'd-3', name: 'sales', size_bytes: 0, reason: 'its rows stay in the database of connection sales' },
];

describe('copy model flow', () => {
  it('asks where, into what and whether the datasets go, checks the new name is free there, and copies under progress', async () => {
    const { deps, prompter, calls, events, progress } = fakeDeps([
      { id: 'destination', reply: { pick: 'Local service' } },
      { id: 'into', reply: 'back' },
      { id: 'destination', reply: 'accept' },
      { id: 'into', reply: 'accept' },
      { id: 'name', reply: { text: 'churn 2' } },
      { id: 'datasets', reply: { pick: 'Also copy the 2 datasets (1.5 MB)' } },
    ], twoDatasets);
    const outcome = await copyModel(deps, model);
    assert.equal(prompter.remaining, 0);
    assert.deepEqual(prompter.prompts.map((p) => [p.id, p.position.step, p.position.totalSteps]), [
      ['destination', 1, 4], ['into', 2, 4], ['destination', 1, 4], ['into', 2, 4], ['name', 3, 4], ['datasets', 4, 4],
    ]);
    assert.equal(prompter.prompts[0].position.title, 'Copy churn to…');
    assert.deepEqual(prompter.prompts[0].labels, ['Hosted service (xm.example.com)', 'Local service']);
    assert.deepEqual(prompter.prompts[3].labels, ['$(add) New model', 'churn'], 'only a model with the same target and type is offered');
    assert.deepEqual(prompter.prompts[3].picked, ['$(add) New model']);
    assert.equal(prompter.prompts[4].value, 'churn', 'the name is prefilled with the model\'s');
    assert.deepEqual(prompter.prompts[5].labels, ['Copy the versions only', 'Also copy the 2 datasets (1.5 MB)']);
    assert.deepEqual(prompter.prompts[5].picked, ['Copy the versions only'], 'datasets go only on request');
    assert.deepEqual(events, ['open Local service', 'close Local service', 'open Hosted service (xm.example.com)', 'close Hosted service (xm.example.com)']);
    assert.deepEqual(calls, [{ destination: 'open Hosted service (xm.example.com)', options: { name: 'churn 2', withDatasets: true, signal: undefined, onProgress: undefined } }]);
    assert.deepEqual(progress, ['Copying churn to Hosted service (xm.example.com)', '1 of 2: v1 (train)']);
    assert.equal(outcome?.report, report);
    assert.equal(outcome?.destination.description, 'team analysts');
  });

  it('refuses a name the team copied to already has, and copies into an existing model without asking a name', async () => {
    const taken = fakeDeps([
      { id: 'destination', reply: 'accept' },
      { id: 'into', reply: 'accept' },
      { id: 'name', reply: 'accept' },
    ]);
    await assert.rejects(copyModel(taken.deps, model), /rejected "churn": team analysts already has a model named churn: choose another name, or go back and copy into it\./);
    assert.deepEqual(taken.events, ['open Hosted service (xm.example.com)', 'close Hosted service (xm.example.com)'], 'the destination is closed however the flow ends');

    const into = fakeDeps([
      { id: 'destination', reply: 'accept' },
      { id: 'into', reply: { pick: 'churn' } },
    ]);
    await copyModel(into.deps, model);
    assert.deepEqual(into.prompter.prompts.map((p) => [p.id, p.position.totalSteps]), [['destination', 3], ['into', 3]], 'no dataset to copy: no dataset step');
    assert.deepEqual(into.calls.map((c) => c.options), [{ into: 't-1', withDatasets: false, signal: undefined, onProgress: undefined }]);
  });

  it('ends quietly when dismissed, and says what to do when there is nowhere to copy to', async () => {
    const dismissed = fakeDeps([{ id: 'destination', reply: 'accept' }, { id: 'into', reply: 'cancel' }]);
    assert.equal(await copyModel(dismissed.deps, model), undefined);
    assert.deepEqual(dismissed.calls, []);
    assert.deepEqual(dismissed.events, ['open Hosted service (xm.example.com)', 'close Hosted service (xm.example.com)']);

    const nowhere = fakeDeps([]);
    await assert.rejects(copyModel({ ...nowhere.deps, destinations: async () => [] }, model), /no other service or team to copy churn to\. Run "XModels: Connect to Hosted Service…"/);
  });

  it('sums a copy up in a sentence and reports every version and dataset, copied or why not', () => {
    const destination = { label: 'Hosted service (xm.example.com)', description: 'team analysts', open: async () => { throw new Error('not opened'); } };
    const mixed: CopyReport = {
      ...report,
      target: { model_id: 't-1', model_name: 'churn', created: false },
      cancelled: true,
      versions: [
        { version_id: 'v-1', version_number: 1, status: 'already_copied', copy: { version_id: 'c-1', version_number: 1 }, reason: 'an earlier copy put it in this model as v1', left_out: [] },
        { version_id: 'v-2', version_number: 2, status: 'copied', copy: { version_id: 'c-4', version_number: 4 }, left_out: ['dataset_id (its dataset was not copied)'] },
        { version_id: 'v-3', version_number: 3, status: 'skipped', reason: 'it applies preprocessor p (version pv) before predicting', left_out: [] },
        { version_id: 'v-4', version_number: 4, status: 'cancelled', reason: 'the copy was cancelled before it', left_out: [] },
      ],
      datasets: [{ ...twoDatasets[0], status: 'copied', copy_id: 'dc-1' }, { ...twoDatasets[2], status: 'skipped' }],
    };
    assert.equal(copySummary({ destination, report: mixed }), 'Cancelled: Copied 1 of 4 versions of churn to Hosted service (xm.example.com) (team analysts) as churn with 1 dataset. 2 not copied: the report says why.');
    assert.equal(copyReportMarkdown({ destination, report: mixed }), [
      '# Copy of churn to Hosted service (xm.example.com) (team analysts)',
      '',
      'Into churn (an existing model), model id `t-1`.',
      '',
      'The copy was cancelled: the versions copied before are there whole; the others are not there at all.',
      '',
      '## Versions',
      '',
      '- v1 (`v-1`) → v1 there (`c-1`): already there from an earlier copy.',
      '- v2 (`v-2`) → v4 there (`c-4`). Not carried: dataset_id (its dataset was not copied).',
      '- v3 (`v-3`) not copied: it applies preprocessor p (version pv) before predicting.',
      '- v4 (`v-4`) not copied: the copy was cancelled before it.',
      '',
      '## Datasets',
      '',
      '- churn.csv (1.1 MB, `d-1`) → `dc-1`',
      '- sales (`d-3`) not copied: its rows stay in the database of connection sales.',
      '',
    ].join('\n'));
    assert.deepEqual([formatSize(0), formatSize(21_000), formatSize(1_572_864)], ['0 KB', '21 KB', '1.5 MB']);
  });
});

describe('copy model flow between two real services', function () {
  this.timeout(120_000);
  let from: LocalService;
  let to: LocalService;
  let source: XModelsClient;
  let target: XModelsClient;

  before(async () => {
    [from, to] = await Promise.all([startLocalService(), startLocalService()]);
    [source, target] = [new XModelsClient({ baseUrl: from.url, apiKey: from.api_key }), new XModelsClient({ baseUrl: to.url, apiKey: to.api_key })];
  });
  after(async () => {
    await Promise.all([source?.close(), target?.close()]);
    await Promise.all([from?.stop(), to?.stop()]);
  });

  it('copies a trained and refitted model with its dataset as a new model there', async () => {
    const dataset = await source.datasets.upload({ csv_content: churnCsv(300), name: 'churn.csv' });
    const trained = await source.models.trainModel({ dataset_id: dataset.dataset_id, target_column: 'churned', model_name: 'churn', drop_columns: ['customer_id'] });
    await source.models.refitModel(trained.version_id, { dataset_id: dataset.dataset_id, target_column: 'churned', smoothing: 2 });
    await target.models.trainModel({ csv_content: churnCsv(100), target_column: 'churned', model_name: 'churn' });
    const info = await source.models.getModel(trained.model_id);
    const prompter = new ScriptedPrompter([
      { id: 'destination', reply: 'accept' },
      { id: 'into', reply: 'accept' },
      { id: 'name', reply: { text: 'churn from laptop' } },
      { id: 'datasets', reply: { pick: `Also copy the dataset (${formatSize(dataset.size_bytes)})` } },
    ]);
    const messages: string[] = [];
    const outcome = await copyModel({
      prompter,
      source: source.models,
      destinations: async () => [{ label: 'Team server', description: 'team default', open: async () => ({ client: target, close: async () => undefined }) }],
      underProgress: (_title, task) => task(new AbortController().signal, (message) => messages.push(message)),
    }, info);
    assert.ok(outcome);
    assert.deepEqual(messages, ['1 of 3: dataset churn.csv', '2 of 3: v1 (train)', '3 of 3: v2 (refit)']);
    assert.deepEqual(outcome.report.versions.map((v) => [v.status, v.copy?.version_number]), [['copied', 1], ['copied', 2]]);
    const copied = (await target.models.listTeamModels()).find((m) => m.model_name === 'churn from laptop');
    assert.equal(copied?.number_of_versions, 2);
    const versions = await target.models.listModelVersions(copied?.model_id as string);
    assert.ok(versions.every((v) => v.dataset_id === outcome.report.datasets[0].copy_id));
    assert.equal(copySummary(outcome), 'Copied 2 of 2 versions of churn to Team server (team default) as churn from laptop with 1 dataset.');
  });
});
