import assert from 'node:assert/strict';
import { XModelsApiError } from '../../../../src/client';
import type { ModelProfile, ModelVersion, PreviewEditsRequest, RefitRequest } from '../../../../src/contract';
import { UserFacingError } from '../../../../src/common/errors';
import { applyEditsFile, type ApplyEditsDeps } from '../../../../src/flows/edits/applyEditsFlow';
import { editsFileText, type EditsFile } from '../../../../src/flows/edits/editsFile';
import { exportEdits, type ExportEditsDeps } from '../../../../src/flows/edits/exportEditsFlow';
import { model, version } from '../../extension/fixtures';
import { ScriptedPrompter, type ScriptedAnswer } from '../../prompts/scriptedPrompter';
import { categoryBins, numericBins, regressionProfile } from './profiles';

const metrics = { mae: 1, mse: 1, rmse: 1, r2: 0.5, mape: null, explained_variance: 0.5 };
const spend = model({ model_id: 'm1', model_name: 'spend', target_name: 'spend', model_type: 'regression' });
const other = model({ model_id: 'm2', model_name: 'churn' });
const stamp = { applied_at: '2026-01-02T03:04:05Z', applied_by: 'ana' };
const v1 = version({ version_id: 'v1', version_number: 1, parent_version_id: null, edits: [] });
const v2 = version({ version_id: 'v2', version_number: 2, parent_version_id: 'v1', edits: [{ feature: 'age', op: 'set', bins: [0, 0], value: 3, ...stamp }] });
const v3 = version({ version_id: 'v3', version_number: 3, parent_version_id: null, dataset_id: null, edits: [] });
const profile = regressionProfile({ __dataset__: { numeric: { age: numericBins([20, 30]) }, categorical: { plan: categoryBins(['basic', 'pro']) } } });
const file: EditsFile = {
  format: 'xmodels-edits',
  version: 1,
  source: { model_id: 'm1', model_name: 'spend', target_name: 'spend', version_id: 'v2', version_number: 2, parent_version_id: 'v1' },
  edits: [
    { feature: 'age', op: 'set', bins: [0, 0], bounds: [[null, 20]], value: 3 },
    { feature: 'plan', op: 'set', bins: 'missing', value: -1 },
    { feature: 'income', op: 'reset' },
  ],
};

/** The models API of a service holding spend (v1, v2 with an edit, v3 without a dataset) and churn; records calls. */
function fakeModels(options: { refuse?: { index: number; field: string; detail: string }; parentGone?: boolean } = {}) {
  const calls: string[] = [];
  const previews: PreviewEditsRequest[] = [];
  const refits: RefitRequest[] = [];
  const models = {
    listTeamModels: async () => [other, spend],
    listModelVersions: async (id: string): Promise<ModelVersion[]> => (id === 'm1' ? [v1, v3, v2] : []),
    getModelProfile: async (id: string): Promise<ModelProfile> => {
      calls.push(`profile ${id}`);
      if (options.parentGone && id === 'v1') throw new XModelsApiError({ status: 404, code: 'NOT_FOUND', detail: 'no version v1' });
      return profile;
    },
    previewEdits: async (id: string, request: PreviewEditsRequest) => {
      previews.push(request);
      const { refuse } = options;
      if (refuse && request.edits.length > refuse.index && previews.length === 1) {
        throw new XModelsApiError({ status: 422, code: 'VALIDATION_ERROR', detail: `edits[${refuse.index}].${refuse.field}: ${refuse.detail}.`, fields: [{ path: `edits.${refuse.index}.${refuse.field}`, message: refuse.detail }] });
      }
      return { version_id: id, features: {}, parts: [], before: { train_metrics: metrics, test_metrics: metrics }, after: { train_metrics: metrics, test_metrics: { ...metrics, r2: 0.4 } } };
    },
    refitModel: async (id: string, request: RefitRequest) => {
      refits.push(request);
      return { model_id: 'm1', version_id: 'v9', parent_version_id: id, train_metrics: metrics, test_metrics: metrics, feature_importances: [], parameters_changed: {}, duration_ms: 1 };
    },
  };
  return { models, calls, previews, refits };
}

function applyDeps(answers: ScriptedAnswer[], fake = fakeModels()) {
  const prompter = new ScriptedPrompter(answers);
  const reports: string[] = [];
  const titles: string[] = [];
  const deps: ApplyEditsDeps = {
    prompter,
    models: fake.models as unknown as ApplyEditsDeps['models'],
    showReport: async (markdown) => void reports.push(markdown),
    underProgress: (title, task) => {
      titles.push(title);
      return task(new AbortController().signal);
    },
  };
  return { deps, prompter, reports, titles, ...fake };
}

async function userError(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof UserFacingError, `expected a UserFacingError, got ${String(error)}`);
  return error.message;
}

describe('Apply Edits from File', () => {
  it('asks for the version (the file\u2019s model first, versions with a dataset, newest first), previews, reports, and saves what fits', async () => {
    const { deps, prompter, reports, previews, refits, titles } = applyDeps([
      { id: 'model', reply: 'accept' },
      { id: 'version', reply: 'accept' },
      { id: 'save', reply: { confirm: true } },
    ]);
    const outcome = await applyEditsFile(deps, 'spend-v2.edits.json', editsFileText(file));
    assert.deepEqual(prompter.prompts.map((p) => [p.id, p.labels, p.picked]), [
      ['model', ['spend', 'churn'], ['spend']],
      ['version', ['v2', 'v1'], ['v2']],
      ['save', [], []],
    ]);
    assert.equal(prompter.prompts[2].position.title, 'Save 2 of the 3 edits of spend-v2.edits.json as a new version of spend?');
    const expected = [{ feature: 'age', op: 'set', bins: [0, 0], value: 3 }, { feature: 'plan', op: 'set', bins: 'missing', value: -1 }];
    const rows = { dataset_id: 'd1', target_column: 'spend' };
    assert.deepEqual(previews, [{ edits: expected, ...rows }], 'the version\u2019s dataset and its model\u2019s target');
    assert.deepEqual(refits, [{ edits: expected, ...rows }]);
    assert.equal(outcome?.saved?.version_id, 'v9');
    assert.deepEqual(titles, ['Previewing the edits of spend-v2.edits.json on spend v2', 'Saving the edits of spend-v2.edits.json on spend v2']);
    assert.match(reports[0], /With the edits that fit: test R² 0\.500 → 0\.400 \(train R² 0\.500 → 0\.500\)\./);
    assert.match(reports[0], /- 3\. reset income \\\(every bin\\\): v2 has no feature income; its features are age, plan\./);
  });

  it('takes an edit the service refuses out, with its reason, and previews the others again', async () => {
    const fake = fakeModels({ refuse: { index: 1, field: 'value', detail: 'must be finite' } });
    const { deps, previews, refits } = applyDeps([{ id: 'save', reply: { confirm: true } }], fake);
    const outcome = await applyEditsFile(deps, 'spend-v2.edits.json', editsFileText(file), { model: spend, version: v1 });
    assert.equal(outcome?.mapped[1].problem, 'the service refuses it (value: must be finite)');
    assert.deepEqual(previews.map((p) => p.edits.length), [2, 1]);
    assert.deepEqual(refits, [{ edits: [{ feature: 'age', op: 'set', bins: [0, 0], value: 3 }], dataset_id: 'd1', target_column: 'spend' }]);
  });

  it('saves nothing when none fits (and asks nothing) or when the user declines', async () => {
    const nothingFits = { ...file, edits: [file.edits[2]] };
    const none = applyDeps([]);
    const outcome = await applyEditsFile(none.deps, 'x.edits.json', editsFileText(nothingFits), { model: spend, version: v1 });
    assert.ok(outcome && !outcome.saved && !outcome.preview);
    assert.deepEqual([none.previews, none.refits], [[], []]);
    assert.match(none.reports[0], /Nothing can be saved: no edit fits v1\.\n$/);

    const declined = applyDeps([{ id: 'save', reply: { confirm: false } }]);
    assert.equal((await applyEditsFile(declined.deps, 'x.edits.json', editsFileText(file), { model: spend, version: v1 }))?.saved, undefined);
    assert.deepEqual([declined.previews.length, declined.refits.length, declined.reports.length], [1, 0, 1]);
  });

  it('ends quietly when a prompt is dismissed, and says what to do for a file without edits or a version without a dataset', async () => {
    const dismissed = applyDeps([{ id: 'model', reply: 'cancel' }]);
    assert.equal(await applyEditsFile(dismissed.deps, 'x.edits.json', editsFileText(file)), undefined);
    assert.deepEqual(dismissed.calls, []);
    assert.match(await userError(applyEditsFile(applyDeps([]).deps, 'x.edits.json', editsFileText({ ...file, edits: [] }))), /^x\.edits\.json lists no edits\. Export/);
    assert.match(
      await userError(applyEditsFile(applyDeps([]).deps, 'x.edits.json', editsFileText(file), { model: spend, version: v3 })),
      /^v3 of spend has no stored dataset, so edits cannot be checked or saved on it\. Train a new version from a CSV instead\.$/,
    );
    assert.match(await userError(applyEditsFile(applyDeps([]).deps, 'x.json', '{"format": "other"}')), /^x\.json is not an edits file/);
  });
});

describe('Export Edits', () => {
  const exportDeps = (answers: ScriptedAnswer[], fake = fakeModels()): ExportEditsDeps & { prompter: ScriptedPrompter } => ({
    prompter: new ScriptedPrompter(answers),
    models: fake.models as unknown as ExportEditsDeps['models'],
  });

  it('offers only the versions saved with edits, and reads the bins by value from the parent the edits were made on', async () => {
    const fake = fakeModels();
    const deps = exportDeps([{ id: 'model', reply: { pick: 'spend' } }, { id: 'version', reply: 'accept' }], fake);
    const exported = await exportEdits(deps);
    assert.deepEqual(deps.prompter.prompts.map((p) => p.labels), [['churn', 'spend'], ['v2']]);
    assert.deepEqual(deps.prompter.prompts[0].picked, [], 'no model is picked for the user');
    assert.deepEqual(fake.calls.sort(), ['profile v1', 'profile v2']);
    assert.equal(exported?.fileName, 'spend-v2.edits.json');
    assert.deepEqual(exported?.file.edits, [{ feature: 'age', op: 'set', bins: [0, 0], bounds: [[null, 20]], value: 3, ...stamp }]);
  });

  it('uses the version\u2019s own bins when its parent is gone, and says what to do when there are no edits', async () => {
    const exported = await exportEdits(exportDeps([], fakeModels({ parentGone: true })), { model: spend, version: v2 });
    assert.deepEqual(exported?.file.edits[0].bounds, [[null, 20]]);
    assert.match(await userError(exportEdits(exportDeps([]), { model: spend, version: v1 })), /^v1 of spend has no hand edits to export\./);
    assert.match(
      await userError(exportEdits(exportDeps([{ id: 'model', reply: { pick: 'churn' } }]))),
      /^No version of churn has hand edits\. Edit the steps of a version and save them as a new version, then export that one\.$/,
    );
  });
});
