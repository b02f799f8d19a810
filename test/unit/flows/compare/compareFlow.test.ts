import assert from 'node:assert/strict';
import type { ModelInfo, ModelVersion } from '../../../../src/contract';
import { UserFacingError } from '../../../../src/common/errors';
import { askVersionsToCompare, type CompareSource } from '../../../../src/flows/compare/compareFlow';
import { ScriptedPrompter } from '../../prompts/scriptedPrompter';

const version = (n: number, extra: Partial<ModelVersion> = {}) =>
  ({ version_id: `v-${n}`, model_id: 'm-1', version_number: n, created: '2026-11-20T10:00:00Z', source: n === 1 ? 'train' : 'refit', test_metrics: null, linked_preprocessor: null, ...extra }) as ModelVersion;
const edit = { feature: 'age', op: 'shift' as const, value: 1, applied_at: '2026-11-21T10:00:00Z', applied_by: 'ana' };
const models = [
  { model_id: 'm-1', model_name: 'churn', number_of_versions: 3, created: '2026-11-20T10:00:00Z' },
  { model_id: 'm-2', model_name: 'spend', number_of_versions: 1, created: '2026-11-20T10:00:00Z' },
] as ModelInfo[];

function source(versions: ModelVersion[] = [version(1), version(2, { edits: [edit, edit] }), version(3)]): CompareSource {
  return { listTeamModels: async () => models, listModelVersions: async () => versions };
}

describe('compare flow: which two versions', () => {
  it('from a version asks only for another one, newest first', async () => {
    const prompter = new ScriptedPrompter([{ id: 'otherVersion', reply: { pick: 'v2' } }]);
    const args = await askVersionsToCompare(prompter, source(), { modelId: 'm-1', versionId: 'v-3', model: models[0] });
    assert.deepEqual(args, { modelId: 'm-1', versionId: 'v-3', otherVersionId: 'v-2', modelName: 'churn' });
    assert.deepEqual(prompter.prompts.map((p) => p.labels), [['v2', 'v1']]);
    assert.equal(prompter.remaining, 0);
  });

  it('from the Command Palette asks for the model (those with two versions), a version and the other one, with Back', async () => {
    const prompter = new ScriptedPrompter([
      { id: 'model', reply: { pick: 'churn' } },
      { id: 'version', reply: { pick: 'v1' } },
      { id: 'otherVersion', reply: 'back' },
      { id: 'version', reply: { pick: 'v3' } },
      { id: 'otherVersion', reply: { pick: 'v1' } },
    ]);
    const args = await askVersionsToCompare(prompter, source());
    assert.deepEqual(args, { modelId: 'm-1', versionId: 'v-3', otherVersionId: 'v-1', modelName: 'churn' });
    assert.deepEqual(prompter.prompts[0].labels, ['churn']);
    assert.deepEqual(prompter.prompts.map((p) => p.position.step), [1, 2, 3, 2, 3]);
    assert.deepEqual(prompter.prompts[4].labels, ['v2', 'v1'], 'the version picked first is not offered again');
  });

  it('ends quietly when dismissed, and says what to do when there is nothing to compare', async () => {
    assert.equal(await askVersionsToCompare(new ScriptedPrompter([{ id: 'otherVersion', reply: 'cancel' }]), source(), { modelId: 'm-1', versionId: 'v-1' }), undefined);
    await assert.rejects(askVersionsToCompare(new ScriptedPrompter([]), source([version(1)]), { modelId: 'm-1', versionId: 'v-1' }), (error: unknown) =>
      error instanceof UserFacingError && /one version: train or refit another/.test(error.message));
    const single: CompareSource = { listTeamModels: async () => [models[1]], listModelVersions: async () => [] };
    await assert.rejects(askVersionsToCompare(new ScriptedPrompter([]), single), /No model has two versions yet/);
  });
});
