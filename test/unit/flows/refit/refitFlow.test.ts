import assert from 'node:assert/strict';
import type { ModelInfo, ModelVersion } from '../../../../src/contract';
import { parseSettings } from '../../../../src/common/settingsSchema';
import { askRefit, type RefitSubject } from '../../../../src/flows/refit/refitFlow';
import { ScriptedPrompter } from '../../prompts/scriptedPrompter';

const training = parseSettings({}).settings.training;

function subject(): RefitSubject {
  const model = { model_id: 'm-1', model_name: 'Churn', target_name: 'churned', model_type: 'binary_classification' } as ModelInfo;
  const version = { version_id: 'v-1', version_number: 2, dataset_id: 'ds-1', parameters: {} } as unknown as ModelVersion & { dataset_id: string };
  const features = [
    { feature: 'plan', type: 'categorical', importance: 0.2 },
    { feature: 'tenure', type: 'numeric', importance: 0.7 },
  ] as RefitSubject['features'];
  return { model, version, features };
}

describe('refit flow', () => {
  it('refits all features with the version’s parameters in two steps', async () => {
    const prompter = new ScriptedPrompter([{ id: 'scope', reply: 'accept' }, { id: 'parameters', reply: 'accept' }]);
    const asked = await askRefit(prompter, subject(), training);
    assert.deepEqual(prompter.prompts.map((p) => [p.id, p.position.step, p.position.totalSteps]), [['scope', 1, 3], ['parameters', 2, 2]]);
    assert.equal(prompter.prompts[0].position.title, 'Refit Churn v2');
    assert.equal(prompter.prompts[1].position.title, 'Refit Churn v2: parameters for all features');
    assert.ok(asked);
    assert.equal(asked.scope, 'all');
    assert.deepEqual(asked.request, { dataset_id: 'ds-1', target_column: 'churned', test_size: asked.request.test_size });
  });

  it('sends the chosen features, features listed by importance', async () => {
    const prompter = new ScriptedPrompter([
      { id: 'scope', reply: { pick: 'Chosen features' } },
      { id: 'features', reply: { pick: ['plan'] } },
      { id: 'parameters', reply: 'accept' },
    ]);
    const asked = await askRefit(prompter, subject(), training);
    assert.deepEqual(prompter.prompts[1].labels, ['tenure', 'plan']);
    assert.deepEqual(prompter.prompts.map((p) => p.position.step), [1, 2, 3]);
    assert.deepEqual(asked?.request.features, ['plan']);
  });

  it('goes Back to the scope keeping it, then asks parameters feature by feature', async () => {
    const prompter = new ScriptedPrompter([
      { id: 'scope', reply: 'accept' },
      { id: 'parameters', reply: 'back' },
      { id: 'scope', reply: { pick: 'Per-feature parameters' } },
      { id: 'features', reply: { pick: ['tenure', 'plan'] } },
      { id: 'parameters', reply: 'accept' },
      { id: 'parameters', reply: 'back' },
      { id: 'parameters', reply: 'accept' },
      { id: 'parameters', reply: 'accept' },
    ]);
    const asked = await askRefit(prompter, subject(), training);
    assert.deepEqual(prompter.prompts[2].picked, ['All features'], 'the scope chosen before Back is active');
    assert.deepEqual(prompter.prompts.slice(4).map((p) => [p.position.title, p.position.step, p.position.totalSteps]), [
      ['Refit Churn v2: parameters for tenure', 3, 4],
      ['Refit Churn v2: parameters for plan', 4, 4],
      ['Refit Churn v2: parameters for tenure', 3, 4],
      ['Refit Churn v2: parameters for plan', 4, 4],
    ]);
    assert.ok(asked);
    assert.equal(asked.scope, 'perFeature');
    assert.deepEqual(Object.keys(asked.request.feature_params ?? {}), ['tenure', 'plan']);
    assert.equal(asked.request.features, undefined);
  });

  it('ends quietly when dismissed and insists on at least one feature', async () => {
    assert.equal(await askRefit(new ScriptedPrompter([{ id: 'scope', reply: 'cancel' }]), subject(), training), undefined);
    const none = new ScriptedPrompter([{ id: 'scope', reply: { pick: 'Chosen features' } }, { id: 'features', reply: { pick: [] } }]);
    await assert.rejects(askRefit(none, subject(), training), /Choose at least one feature to refit\./);
  });
});
