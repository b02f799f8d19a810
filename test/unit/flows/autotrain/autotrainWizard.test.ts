import assert from 'node:assert/strict';
import { collectAutotrainChoices, confirmationDetail, type AutotrainData } from '../../../../src/flows/autotrain/autotrainWizard';
import type { Label } from '../../../../src/contract/autotrain';
import { churnGoals, churnLabels, churnRecommendations, churnSummary } from './fixtures';
import { ScriptedPrompter, type ScriptedAnswer } from '../../prompts/scriptedPrompter';

function data(overrides: Partial<AutotrainData> = {}): AutotrainData {
  return {
    fileName: '/work/data/churn.csv',
    summary: Promise.resolve(churnSummary()),
    labels: Promise.resolve(churnLabels),
    goals: Promise.resolve(churnGoals),
    recommendations: Promise.resolve(churnRecommendations),
    ...overrides,
  };
}

const acceptAll: ScriptedAnswer[] = ['summary', 'label', 'goals', 'features', 'name', 'description', 'confirm']
  .map((id) => ({ id, reply: 'accept' }));

describe('autotrain wizard flow', () => {
  it('asks the seven steps in order with titles, step numbers and Back after the first', async () => {
    const prompter = new ScriptedPrompter(acceptAll);
    const choices = await collectAutotrainChoices(prompter, data());
    assert.deepEqual(prompter.prompts.map((p) => [p.id, p.position.step, p.position.totalSteps, p.position.canGoBack]), [
      ['summary', 1, 7, false], ['label', 2, 7, true], ['goals', 3, 7, true], ['features', 4, 7, true],
      ['name', 5, 7, true], ['description', 6, 7, true], ['confirm', 7, 7, true],
    ]);
    assert.ok(prompter.prompts.every((p) => p.position.title === 'Autotrain: churn.csv'));
    assert.deepEqual(prompter.prompts[0].labels, ['$(arrow-right) Continue', 'customer_id', 'tenure', 'plan', 'churned']);
    assert.deepEqual(prompter.prompts[1].labels, ['churned', 'plan', 'tenure']);
    assert.deepEqual(prompter.prompts[3].picked, ['Drop customer_id', 'Fill tenure', 'Bin tenure']);
    assert.equal(prompter.prompts[4].value, 'churn');
    assert.ok(choices);
    assert.equal(choices.label.column, 'churned');
    assert.deepEqual(choices.goals, []);
    assert.deepEqual(choices.selected, churnRecommendations);
    assert.equal(choices.modelName, 'churn');
    assert.equal(choices.description, 'Predicts churned (classifier) from churn.csv.');
    assert.equal(choices.summary.dataset_id, 'ds-1');
  });

  it('goes Back, keeps earlier answers and refreshes the default description after a label change', async () => {
    const prompter = new ScriptedPrompter([
      { id: 'summary', reply: 'accept' },
      { id: 'label', reply: 'accept' },
      { id: 'goals', reply: { pick: ['How many customers per plan?'] } },
      { id: 'features', reply: { pick: ['Bin tenure'] } },
      { id: 'name', reply: { text: 'churn v2' } },
      { id: 'description', reply: 'back' },
      { id: 'name', reply: 'back' },
      { id: 'features', reply: 'back' },
      { id: 'goals', reply: 'back' },
      { id: 'label', reply: { pick: 'tenure' } },
      { id: 'goals', reply: 'accept' },
      { id: 'features', reply: 'accept' },
      { id: 'name', reply: 'accept' },
      { id: 'description', reply: 'accept' },
      { id: 'confirm', reply: 'accept' },
    ]);
    const choices = await collectAutotrainChoices(prompter, data());
    const byId = (id: string) => prompter.prompts.filter((p) => p.id === id);
    assert.deepEqual(byId('goals')[1].picked, ['How many customers per plan?']);
    assert.deepEqual(byId('label')[0].picked, []);
    assert.deepEqual(byId('label')[1].picked, ['churned'], 'the earlier label is the active row');
    assert.deepEqual(byId('features')[1].picked, ['Bin tenure']);
    assert.deepEqual(byId('features')[2].labels, ['Drop customer_id'], 'steps on the new label are left out');
    assert.equal(byId('name')[1].value, 'churn v2');
    assert.equal(byId('description')[0].value,
      'Predicts churned (classifier) from churn.csv. Questions: How many customers per plan?');
    assert.ok(choices);
    assert.equal(choices.label.column, 'tenure');
    assert.equal(choices.label.model_type, 'regressor');
    assert.equal(choices.modelName, 'churn v2');
    assert.deepEqual(choices.recommendations.map((r) => r.feature_name), ['Drop customer_id']);
    assert.deepEqual(choices.selected, []);
    assert.equal(choices.description, 'Predicts tenure (regressor) from churn.csv. Questions: How many customers per plan?');
    assert.equal(prompter.remaining, 0);
  });

  it('says on the confirmation row how the kept steps reach the service', async () => {
    const prompter = new ScriptedPrompter([
      ...acceptAll.slice(0, 3), { id: 'features', reply: { pick: ['Fill tenure'] } }, ...acceptAll.slice(4),
    ]);
    await collectAutotrainChoices(prompter, data());
    assert.equal(prompter.prompts[6].labels[0], '$(play) Start training');
    assert.equal(
      confirmationDetail({ label: churnLabels[1], dropRareClasses: false, goals: [], recommendations: churnRecommendations, selected: [churnRecommendations[1]] }),
      'Label churned (classifier) · 1 of 3 feature-engineering steps: trained from a new preprocessor with exactly these steps',
    );
    assert.match(
      confirmationDetail({ label: churnLabels[1], dropRareClasses: false, goals: [], recommendations: churnRecommendations, selected: churnRecommendations }),
      /3 of 3 feature-engineering steps: autotrain applies them and searches the training parameters$/,
    );
  });

  it('asks to leave out the rows of a label class too rare to train, saying how many, and says so on the confirmation row', async () => {
    const plan: Label = { ...churnLabels[0], confidence: 0.95, rare_classes: [{ class: 'legacy', rows: 1, training_rows: 1 }] };
    const prompter = new ScriptedPrompter([
      { id: 'summary', reply: 'accept' },
      { id: 'label', reply: 'accept' },
      { id: 'rareClasses', reply: 'back' },
      { id: 'label', reply: 'accept' },
      { id: 'rareClasses', reply: 'accept' },
      ...acceptAll.slice(2),
    ]);
    const choices = await collectAutotrainChoices(prompter, data({ labels: Promise.resolve([plan, churnLabels[1]]) }));
    const rare = prompter.prompts[2];
    assert.deepEqual([rare.id, rare.position.step, rare.position.canGoBack], ['rareClasses', 2, true], 'a question of the label step');
    assert.deepEqual(rare.labels, ["$(check) Leave out 1 row of class 'legacy'"]);
    assert.match(rare.placeholder ?? '', /^plan has classes too rare to train \(fewer than 2 training rows\): leave out their rows, or go Back to choose another label$/);
    assert.equal(prompter.prompts[3].id, 'label', 'Back returns to the label list');
    assert.ok(choices);
    assert.equal(choices.dropRareClasses, true);
    assert.match(confirmationDetail(choices), /^Label plan \(classifier\), leaving out 1 row of class 'legacy' · /);
  });

  it('asks nothing about rare classes for a label without any, and forgets them when the label changes', async () => {
    const plan: Label = { ...churnLabels[0], confidence: 0.95, rare_classes: [{ class: 'legacy', rows: 3, training_rows: 1 }, { class: 'old', rows: 1, training_rows: 0 }] };
    const prompter = new ScriptedPrompter([
      { id: 'summary', reply: 'accept' },
      { id: 'label', reply: 'accept' },
      { id: 'rareClasses', reply: 'accept' },
      { id: 'goals', reply: 'back' },
      { id: 'label', reply: { pick: 'churned' } },
      ...acceptAll.slice(2),
    ]);
    const choices = await collectAutotrainChoices(prompter, data({ labels: Promise.resolve([plan, churnLabels[1]]) }));
    assert.deepEqual(prompter.prompts[2].labels, ["$(check) Leave out 4 rows of class(es) 'legacy', 'old'"]);
    assert.deepEqual([choices?.label.column, choices?.dropRareClasses], ['churned', false]);
  });

  it('ends quietly with no choices when a prompt is dismissed', async () => {
    const prompter = new ScriptedPrompter([...acceptAll.slice(0, 4), { id: 'name', reply: 'cancel' }]);
    assert.equal(await collectAutotrainChoices(prompter, data()), undefined);
    assert.equal(prompter.prompts.length, 5);
  });

  it('refuses an invalid model name through the box validation', async () => {
    const prompter = new ScriptedPrompter([...acceptAll.slice(0, 4), { id: 'name', reply: { text: ' ' } }]);
    await assert.rejects(collectAutotrainChoices(prompter, data()), /rejected " ": Enter a name\./);
    assert.equal(prompter.prompts[4].validation, 'Enter a name.');
  });

  it('fails with a next step when no column can be a label', async () => {
    const prompter = new ScriptedPrompter(acceptAll);
    await assert.rejects(collectAutotrainChoices(prompter, data({ labels: Promise.resolve([]) })),
      /No column of churn\.csv can serve as a label .* Add a target column to the CSV and try again\./);
  });

  it('passes the service error of a failed summary through', async () => {
    const failing = Promise.reject(new Error('file_path /x.csv is not a readable CSV.'));
    const prompter = new ScriptedPrompter(acceptAll);
    await assert.rejects(collectAutotrainChoices(prompter, data({ summary: failing })), /not a readable CSV/);
  });
});
