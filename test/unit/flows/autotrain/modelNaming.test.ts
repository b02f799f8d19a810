import assert from 'node:assert/strict';
import {
  MAX_MODEL_NAME_LENGTH, defaultModelDescription, defaultModelName, validateName,
} from '../../../../src/flows/autotrain/modelNaming';
import { churnGoals, churnLabels } from './fixtures';

describe('wizard model naming', () => {
  it('derives the default name from the file name', () => {
    assert.equal(defaultModelName('/data/telco_churn.csv'), 'telco_churn');
    assert.equal(defaultModelName('C:\\data\\Telco Churn (2024).csv'), 'Telco Churn 2024');
    assert.equal(defaultModelName('house-prices.v2.csv'), 'house-prices.v2');
    assert.equal(defaultModelName('((( ))).csv'), 'autotrain-model');
    assert.equal(defaultModelName(`${'x'.repeat(150)}.csv`).length, MAX_MODEL_NAME_LENGTH);
  });

  it('gives the default name that the validator accepts', () => {
    assert.equal(validateName(defaultModelName('/tmp/a b.csv')), undefined);
  });

  it('rejects empty, too long and control-character names with a sentence', () => {
    assert.equal(validateName('   '), 'Enter a name.');
    assert.match(validateName('y'.repeat(101)) ?? '', /at most 100 characters \(this name has 101\)/);
    assert.match(validateName('a\tb') ?? '', /control characters/);
    assert.equal(validateName('  churn model  '), undefined);
  });

  it('describes the label, the file and the kept questions', () => {
    const churned = churnLabels[1];
    assert.equal(defaultModelDescription('/d/churn.csv', churned, []), 'Predicts churned (classifier) from churn.csv.');
    assert.equal(defaultModelDescription('churn.csv', { column: 'plan' }, []), 'Predicts plan from churn.csv.');
    assert.equal(
      defaultModelDescription('/d/churn.csv', churned, churnGoals),
      'Predicts churned (classifier) from churn.csv. Questions: How is tenure distributed? How many customers per plan?',
    );
  });
});
