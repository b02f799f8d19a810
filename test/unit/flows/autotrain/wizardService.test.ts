import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XModelsClient } from '../../../../src/client';
import { loadAutotrainData, summarizeCsv } from '../../../../src/flows/autotrain/autotrainData';
import { collectAutotrainChoices } from '../../../../src/flows/autotrain/autotrainWizard';
import { planTraining, startTraining } from '../../../../src/flows/autotrain/trainingPlan';
import { churnCsv, startLocalService, type LocalService } from '../../client/localService';
import { ScriptedPrompter, type ScriptedAnswer } from '../../prompts/scriptedPrompter';

/** The wizard's flow (without VS Code) against the real local service: prompts answered by a script. */
describe('autotrain wizard against the local service', function () {
  this.timeout(120_000);
  let service: LocalService;
  let client: XModelsClient;
  let csv: string;
  const warnings: string[] = [];

  before(async () => {
    service = await startLocalService();
    client = new XModelsClient({ baseUrl: service.url, apiKey: service.api_key });
    csv = join(service.dataDir, 'churn.csv');
    writeFileSync(csv, churnCsv(400));
  });
  after(() => service?.stop());

  async function runWizard(answers: ScriptedAnswer[]) {
    const prompter = new ScriptedPrompter(answers);
    const signal = new AbortController().signal;
    const warn = (what: string, list: readonly string[]) => warnings.push(...list.map((w) => `${what}: ${w}`));
    const data = loadAutotrainData(client.autotrain, csv, summarizeCsv(client.autotrain, csv, signal, warn, {}), signal, warn, {});
    const choices = await collectAutotrainChoices(prompter, data);
    assert.ok(choices, 'the wizard finished');
    return { prompter, choices };
  }

  async function trainAndCheck(choices: NonNullable<Awaited<ReturnType<typeof runWizard>>['choices']>) {
    const plan = planTraining(choices, {});
    const started = await startTraining(client, plan);
    const seen: number[] = [];
    const done = await client.autotrain.waitForTraining(started.training_id, { interval: 100, onProgress: (s) => seen.push(s.progress) });
    assert.equal(done.status, 'completed');
    assert.equal(seen[seen.length - 1], 100);
    assert.ok(done.model_id && done.version_id);
    const model = await client.models.getModel(done.model_id);
    assert.equal(model.model_name, choices.modelName);
    const versions = await client.models.listModelVersions(done.model_id);
    assert.ok(versions.some((v) => v.version_id === done.version_id));
    return { plan, model };
  }

  it('shows the real summary and label ranking, then trains with autotrain when every step is kept', async () => {
    const { prompter, choices } = await runWizard([
      { id: 'summary', reply: 'accept' },
      { id: 'label', reply: { pick: 'churned' } },
      { id: 'goals', reply: 'accept' },
      { id: 'features', reply: 'accept' },
      { id: 'name', reply: { text: 'churn autotrain' } },
      { id: 'description', reply: 'accept' },
      { id: 'confirm', reply: 'accept' },
    ]);
    assert.deepEqual(prompter.prompts[0].labels.slice(1), ['customer_id', 'tenure', 'plan', 'monthly', 'region', 'churned']);
    assert.ok(prompter.prompts[1].labels.includes('churned'));
    assert.equal(choices.label.model_type, 'classifier');
    assert.ok(choices.recommendations.length > 0, 'the service recommends feature engineering');
    const { plan } = await trainAndCheck(choices);
    assert.equal(plan.kind, 'autotrain');
  });

  it('trains from a preprocessor with only the kept steps after going back to deselect one', async () => {
    const { choices } = await runWizard([
      { id: 'summary', reply: 'accept' },
      { id: 'label', reply: { pick: 'churned' } },
      { id: 'goals', reply: 'accept' },
      { id: 'features', reply: 'accept' },
      { id: 'name', reply: 'back' },
      { id: 'features', reply: { pick: [] } },
      { id: 'name', reply: { text: 'churn manual' } },
      { id: 'description', reply: 'accept' },
      { id: 'confirm', reply: 'accept' },
    ]);
    assert.deepEqual(choices.selected, []);
    const { plan } = await trainAndCheck(choices);
    assert.equal(plan.kind, 'manual');
    const preprocessors = await client.preprocessors.list();
    assert.ok(preprocessors.some((p) => p.name === 'churn manual preprocessing'));
  });
});
