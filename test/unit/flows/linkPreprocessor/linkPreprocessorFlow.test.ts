import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelInfo, ModelVersion } from '../../../../src/contract';
import { linkPreprocessor, type LinkPreprocessorDeps } from '../../../../src/flows/linkPreprocessor/linkPreprocessorFlow';
import { ScriptedPrompter, type ScriptedAnswer } from '../../prompts/scriptedPrompter';

const model = { model_id: 'm-1', model_name: 'Churn' } as ModelInfo;
const version = { version_id: 'v-1', version_number: 3 } as ModelVersion;

/** A client that lists one preprocessor with two versions and records what the flow sends. */
function fakeDeps(answers: ScriptedAnswer[]) {
  const calls: { method: string; body: unknown }[] = [];
  const warnings: string[] = [];
  const prompter = new ScriptedPrompter(answers);
  const client = {
    preprocessors: {
      list: async () => [{ preprocessor_id: 'p-1', name: 'clean', versions: 2, description: '' }],
      listVersions: async () => [
        { version_id: 'pv-1', version_number: 1, created: '2026-01-01T00:00:00Z', steps: [] },
        { version_id: 'pv-2', version_number: 2, created: '2026-01-02T00:00:00Z', steps: [{ type: 'log1p', column: 'tenure' }] },
      ],
      create: async (body: unknown) => {
        calls.push({ method: 'create', body });
        return { preprocessor_id: 'p-new', version_id: 'pv-new' };
      },
    },
    datasets: {
      upload: async (body: unknown) => {
        calls.push({ method: 'upload', body });
        return { dataset_id: 'ds-9' };
      },
    },
    models: {
      linkPreprocessor: async (body: unknown) => {
        calls.push({ method: 'link', body });
      },
    },
  } as unknown as LinkPreprocessorDeps['client'];
  const deps: LinkPreprocessorDeps = {
    prompter,
    client,
    underProgress: (_title, task) => task(new AbortController().signal),
    warn: (message) => warnings.push(message),
  };
  return { deps, prompter, calls, warnings };
}

describe('link preprocessor flow', () => {
  let folder: string;
  let csv: string;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'xmodels-link-'));
    csv = join(folder, 'churn.csv');
    writeFileSync(csv, ['customer_id,tenure,plan', ...Array.from({ length: 20 }, (_, i) => `c${i},${i},${i % 2 ? 'a' : 'b'}`)].join('\n'));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('links the newest version of an existing preprocessor, after Back from the version', async () => {
    const { deps, prompter, calls } = fakeDeps([
      { id: 'preprocessor', reply: 'accept' },
      { id: 'version', reply: 'back' },
      { id: 'preprocessor', reply: { pick: 'clean' } },
      { id: 'version', reply: 'accept' },
    ]);
    const linked = await linkPreprocessor(deps, model, version);
    assert.deepEqual(prompter.prompts.map((p) => [p.id, p.position.step, p.position.totalSteps]), [
      ['preprocessor', 1, 2], ['version', 2, 2], ['preprocessor', 1, 2], ['version', 2, 2],
    ]);
    assert.equal(prompter.prompts[0].position.title, 'Link a preprocessor to Churn v3');
    assert.deepEqual(prompter.prompts[0].picked, ['clean'], 'an existing preprocessor is active first');
    assert.deepEqual(prompter.prompts[1].labels, ['v2', 'v1']);
    assert.deepEqual(linked, { preprocessorName: 'clean', preprocessorVersionId: 'pv-2', versionNumber: 2 });
    assert.deepEqual(calls, [{ method: 'link', body: { model_version_id: 'v-1', preprocessor_version_id: 'pv-2' } }]);
  });

  it('ends quietly without linking when dismissed', async () => {
    const { deps, calls } = fakeDeps([{ id: 'preprocessor', reply: 'accept' }, { id: 'version', reply: 'cancel' }]);
    assert.equal(await linkPreprocessor(deps, model, version), undefined);
    assert.deepEqual(calls, []);
  });

  it('creates a preprocessor from a CSV with the chosen steps and links it', async () => {
    const { deps, prompter, calls, warnings } = fakeDeps([
      { id: 'preprocessor', reply: { pick: '$(add) Create a preprocessor from a CSV…' } },
      { id: 'file', reply: { file: csv } },
      { id: 'name', reply: 'accept' },
      { id: 'preprocessorStep', reply: { pick: '$(add) quantile_bins' } },
      { id: 'column', reply: { pick: 'tenure' } },
      { id: 'bins', reply: { text: '1' } },
      { id: 'preprocessorStep', reply: { pick: '$(add) drop_columns' } },
      { id: 'columns', reply: { pick: ['customer_id'] } },
      { id: 'preprocessorStep', reply: { pick: '$(add) log1p' } },
      { id: 'column', reply: 'back' },
      { id: 'preprocessorStep', reply: { pick: '$(check) Create the preprocessor with 1 step' } },
    ]);
    const linked = await linkPreprocessor(deps, model, version);
    assert.equal(prompter.remaining, 0);
    assert.deepEqual(prompter.prompts.find((p) => p.id === 'name')?.position, { title: 'Link a preprocessor to Churn v3', step: 2, totalSteps: 3, canGoBack: true });
    assert.equal(prompter.prompts.find((p) => p.id === 'name')?.value, 'Churn preprocessing');
    assert.equal(warnings.length, 1, 'the invalid step is reported and not added');
    assert.match(warnings[0], /^The quantile_bins step is not valid: bins /);
    assert.deepEqual(linked, { preprocessorName: 'Churn preprocessing', preprocessorVersionId: 'pv-new', versionNumber: 1 });
    assert.deepEqual(calls, [
      { method: 'upload', body: { file_path: csv } },
      { method: 'create', body: { name: 'Churn preprocessing', description: 'Fitted on churn.csv for Churn v3', dataset_id: 'ds-9', steps: [{ type: 'drop_columns', columns: ['customer_id'] }] } },
      { method: 'link', body: { model_version_id: 'v-1', preprocessor_version_id: 'pv-new' } },
    ]);
  });
});
