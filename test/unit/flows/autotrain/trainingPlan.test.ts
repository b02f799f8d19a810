import assert from 'node:assert/strict';
import {
  chosenSteps, keepsEveryRecommendation, planTraining, recommendationsFor, startTraining, type AutotrainChoices, type TrainingClient,
} from '../../../../src/flows/autotrain/trainingPlan';
import { churnLabels, churnRecommendations, churnSummary } from './fixtures';

const textgen = {};

function choices(selected: AutotrainChoices['selected'], datasetId: string | null = 'ds-1'): AutotrainChoices {
  return {
    summary: churnSummary(datasetId), label: churnLabels[1], dropRareClasses: false, goals: [],
    recommendations: churnRecommendations, selected, modelName: '  churn  ', description: ' Predicts churn. ',
  };
}

describe('wizard training plan', () => {
  it('starts autotrain with the chosen label when every recommendation is kept', () => {
    const plan = planTraining(choices([...churnRecommendations].reverse()), textgen);
    assert.equal(plan.kind, 'autotrain');
    assert.deepEqual(plan.kind === 'autotrain' && plan.request, {
      model_name: 'churn', model_description: 'Predicts churn.', summary: churnSummary(),
      textgen_config: textgen, label: 'churned', model_type: 'classifier',
    });
  });

  it('trains from a preprocessor holding exactly the kept steps, in the recommended order', () => {
    const plan = planTraining(choices([churnRecommendations[2], churnRecommendations[0]]), textgen);
    assert.equal(plan.kind, 'manual');
    if (plan.kind !== 'manual') return;
    assert.deepEqual(plan.preprocessor.steps, [
      { type: 'drop_columns', columns: ['customer_id'] },
      { type: 'quantile_bins', column: 'tenure', bins: 4 },
    ]);
    assert.equal(plan.preprocessor.dataset_id, 'ds-1');
    assert.equal(plan.preprocessor.name, 'churn preprocessing');
    assert.deepEqual(plan.train, { label: 'churned', model_name: 'churn', model_description: 'Predicts churn.', model_type: 'classifier' });
  });

  it('asks both ways of training to leave out the rows of the label classes too rare to train, when the user chose so', () => {
    const auto = planTraining({ ...choices(churnRecommendations), dropRareClasses: true }, textgen);
    assert.equal(auto.kind === 'autotrain' && auto.request.rare_classes, 'drop');
    const manual = planTraining({ ...choices([churnRecommendations[0]]), dropRareClasses: true }, textgen);
    assert.equal(manual.kind === 'manual' && manual.train.rare_classes, 'drop');
    const plain = planTraining(choices([churnRecommendations[0]]), textgen);
    assert.equal(plain.kind === 'manual' && 'rare_classes' in plain.train, false);
  });

  it('leaves out steps on the label and removes the label from a column drop', () => {
    const dropBoth = { ...churnRecommendations[0], index: 3, step: { type: 'drop_columns' as const, columns: ['customer_id', 'plan'] } };
    const ratio = {
      ...churnRecommendations[0], index: 4,
      step: { type: 'ratio' as const, numerator: 'tenure', denominator: 'plan', name: 'tenure_per_plan' },
    };
    const all = [...churnRecommendations, dropBoth, ratio];
    assert.deepEqual(recommendationsFor(all, 'churned'), all);
    const forTenure = recommendationsFor(all, 'tenure');
    assert.deepEqual(forTenure.map((r) => r.index), [0, 3]);
    const forPlan = recommendationsFor(all, 'plan');
    assert.deepEqual(forPlan.map((r) => r.index), [0, 1, 2, 3]);
    assert.deepEqual(forPlan[3].step, { type: 'drop_columns', columns: ['customer_id'] });
    assert.deepEqual(recommendationsFor([churnRecommendations[0]], 'customer_id'), []);
  });

  it('trains from an empty preprocessor when every recommendation was deselected', () => {
    const plan = planTraining(choices([]), textgen);
    assert.equal(plan.kind === 'manual' && plan.preprocessor.steps.length, 0);
    assert.equal(keepsEveryRecommendation(choices([])), false);
    assert.deepEqual(chosenSteps(choices([])), []);
  });

  it('explains what to do when a custom selection cannot be applied without a dataset id', () => {
    assert.throws(() => planTraining(choices([churnRecommendations[0]], null), textgen),
      /churn\.csv has no dataset id .* Keep every recommendation selected/);
  });

  function recordingClient(calls: string[]): TrainingClient {
    const started = { training_id: 't-1', status: 'pending' as const, estimated_time: 3, message: 'Queued' };
    return {
      autotrain: {
        startAutotrain: async (params) => { calls.push(`start ${params.label}`); return started; },
        trainManual: async (params) => { calls.push(`manual ${params.label} ${params.preprocessor_id} ${params.version_id}`); return started; },
      },
      preprocessors: {
        create: async (params) => { calls.push(`create ${params.steps.length} steps on ${params.dataset_id}`); return { preprocessor_id: 'p-1', version_id: 'pv-1' }; },
      },
    };
  }

  it('starts autotrain directly, or creates the preprocessor before train_manual', async () => {
    const calls: string[] = [];
    const client = recordingClient(calls);
    assert.equal((await startTraining(client, planTraining(choices(churnRecommendations), textgen))).training_id, 't-1');
    await startTraining(client, planTraining(choices([churnRecommendations[1]]), textgen));
    assert.deepEqual(calls, ['start churned', 'create 1 steps on ds-1', 'manual churned p-1 pv-1']);
  });
});
