import assert from 'node:assert/strict';
import {
  columnItems, goalItems, labelItems, rankLabels, recommendationItems, shapeText,
} from '../../../../src/flows/autotrain/pickItems';
import { churnGoals, churnLabels, churnRecommendations, churnSummary } from './fixtures';

describe('wizard pick items', () => {
  it('lists every column with its dtype, semantic type, unique and missing counts', () => {
    const items = columnItems(churnSummary());
    assert.deepEqual(items.map((i) => [i.label, i.description, i.detail]), [
      ['customer_id', 'string · id', '1200 unique · no missing values'],
      ['tenure', 'number', '72 unique · 30 missing (3%)'],
      ['plan', 'category', '3 unique · no missing values'],
      ['churned', 'boolean · flag', '2 unique · no missing values'],
    ]);
    assert.equal(shapeText(churnSummary()), '1,200 rows × 4 columns');
  });

  it('ranks labels by confidence and keeps the service order on ties', () => {
    assert.deepEqual(rankLabels(churnLabels).map((l) => l.column), ['churned', 'plan', 'tenure']);
  });

  it('shows model type, confidence and reasoning, marking only the best label as recommended', () => {
    const items = labelItems(churnLabels);
    assert.equal(items[0].label, 'churned');
    assert.equal(items[0].description, 'classifier · 90% confidence · recommended');
    assert.equal(items[0].detail, 'Binary column named like a target. Alternatives: plan.');
    assert.equal(items[2].description, 'regressor · 40% confidence');
    assert.equal(items[2].detail, 'Continuous.');
    assert.deepEqual(labelItems(churnLabels, churnLabels[2]).map((i) => i.picked), [false, false, true]);
  });

  it('pre-selects every recommendation the first time, then keeps the user choice', () => {
    assert.deepEqual(recommendationItems(churnRecommendations, undefined).map((i) => i.picked), [true, true, true]);
    const kept = recommendationItems(churnRecommendations, [churnRecommendations[2]]);
    assert.deepEqual(kept.map((i) => i.picked), [false, false, true]);
    assert.equal(kept[2].description, 'quantile_bins · tenure · medium complexity');
    assert.equal(kept[2].detail, 'Quartiles of tenure. Robust to outliers.');
    assert.equal(kept[1].detail, '30 values are missing.');
  });

  it('leaves goals unselected until the user picks some', () => {
    assert.deepEqual(goalItems(churnGoals, undefined).map((i) => i.picked), [false, false]);
    assert.deepEqual(goalItems(churnGoals, [churnGoals[1]]).map((i) => i.picked), [false, true]);
    assert.equal(goalItems(churnGoals, undefined)[0].description, 'histogram of tenure');
  });
});
