import assert from 'node:assert/strict';
import {
  csvPathOf, summaryGoalOf, summaryLabelOf, summaryStepsOf, wizardOptionsOf,
} from '../../../../src/flows/autotrain/commandArgs';
import { churnGoals, churnLabels, churnRecommendations, churnSummary } from './fixtures';
import { ScriptedPrompter } from '../../prompts/scriptedPrompter';

const csvUri = { scheme: 'file', fsPath: '/data/churn.csv' };

describe('wizard command arguments', () => {
  it('takes the local path of a CSV or Parquet URI and ignores a missing argument', () => {
    assert.equal(csvPathOf(csvUri), '/data/churn.csv');
    assert.equal(csvPathOf({ scheme: 'file', fsPath: '/data/churn.parquet' }), '/data/churn.parquet');
    assert.equal(csvPathOf(undefined), undefined);
    assert.equal(csvPathOf({ summary: churnSummary() }), undefined);
  });

  it('refuses remote resources and files that are not CSV or Parquet, saying what to do', () => {
    assert.throws(() => csvPathOf({ scheme: 'untitled', fsPath: 'Untitled-1' }), /is a untitled resource\. Save a copy locally/);
    assert.throws(() => csvPathOf({ scheme: 'file', fsPath: '/data/model.json' }), /needs a \.csv or \.parquet file \(got \/data\/model\.json\)/);
  });

  it('finds a prompter among the arguments but not in an explorer selection list', () => {
    const prompter = new ScriptedPrompter([]);
    assert.equal(wizardOptionsOf([csvUri, { prompter }]).prompter, prompter);
    assert.equal(wizardOptionsOf([csvUri, [csvUri]]).prompter, undefined);
    assert.equal(wizardOptionsOf([csvUri, { prompter: { pickOne: 1 } }]).prompter, undefined);
  });

  it('accepts {summary, goal} with a Goal or a question, and leaves anything else to the pickers', () => {
    assert.deepEqual(summaryGoalOf('cmd', { summary: churnSummary(), goal: churnGoals[0] })?.goal, churnGoals[0]);
    assert.equal(summaryGoalOf('cmd', { summary: churnSummary(), goal: 'Tenure by plan' })?.goal, 'Tenure by plan');
    assert.equal(summaryGoalOf('cmd', { summary: churnSummary(), goal: 'Tenure by plan', dataPath: '/data/churn.csv' })?.dataPath, '/data/churn.csv', 'the local file goes on to the chart');
    assert.equal(summaryGoalOf('cmd', csvUri), undefined);
    assert.equal(summaryGoalOf('cmd', undefined), undefined);
  });

  it('names the invalid field of a malformed payload', () => {
    assert.throws(() => summaryGoalOf('xmodels.autotrain.insights', { summary: churnSummary(), goal: '' }),
      /^UserFacingError: xmodels\.autotrain\.insights received an invalid goal: /);
    const broken = { ...churnSummary(), rows: -1 };
    assert.throws(() => summaryGoalOf('cmd', { summary: broken, goal: 'x' }), /received an invalid summary\.rows: /);
  });

  it('accepts a Label or a column name, and rejects a column that is not in the summary', () => {
    assert.deepEqual(summaryLabelOf('cmd', { summary: churnSummary(), label: churnLabels[1] }).label, churnLabels[1]);
    assert.deepEqual(summaryLabelOf('cmd', { summary: churnSummary(), label: 'plan' }).label, { column: 'plan' });
    const rare = { ...churnLabels[0], rare_classes: [{ class: 'legacy', rows: 1, training_rows: 1 }] };
    assert.deepEqual(summaryLabelOf('cmd', { summary: churnSummary(), label: rare }).label.rare_classes, rare.rare_classes, 'the classes training leaves out');
    assert.throws(() => summaryLabelOf('cmd', { summary: churnSummary(), label: 'revenue' }),
      /label revenue, which is not a column of churn\.csv/);
    assert.throws(() => summaryLabelOf('cmd', undefined), /needs \{summary, label\}/);
  });

  it('accepts steps or recommendations carrying them, and at least one', () => {
    const fromSteps = summaryStepsOf('cmd', { summary: churnSummary(), steps: [churnRecommendations[0].step] });
    assert.deepEqual(fromSteps.steps, [{ type: 'drop_columns', columns: ['customer_id'] }]);
    const fromRecs = summaryStepsOf('cmd', { summary: churnSummary(), steps: churnRecommendations.slice(1) });
    assert.deepEqual(fromRecs.steps.map((s) => s.type), ['fill_missing', 'quantile_bins']);
    assert.throws(() => summaryStepsOf('cmd', { summary: churnSummary(), steps: [] }), /invalid steps: /);
    assert.throws(() => summaryStepsOf('cmd', { summary: churnSummary(), steps: [{ type: 'explode' }] }), /invalid steps\.0: /);
  });
});
