import type { DatasetSummary, Goal, Label, Recommendation } from '../../../../src/contract/autotrain';

/** A small churn summary shaped like the service's answer. */
export function churnSummary(datasetId: string | null = 'ds-1'): DatasetSummary {
  return {
    dataset_id: datasetId,
    name: 'churn',
    file_name: 'churn.csv',
    dataset_description: '1200 rows × 4 columns; likely target: churned.',
    rows: 1200,
    columns: ['customer_id', 'tenure', 'plan', 'churned'],
    dtypes: { customer_id: 'string', tenure: 'number', plan: 'category', churned: 'boolean' },
    missing_values: { customer_id: 0, tenure: 30, plan: 0, churned: 0 },
    field_names: ['customer_id', 'tenure', 'plan', 'churned'],
    fields: [
      { column: 'customer_id', properties: { dtype: 'string', samples: ['a1'], num_unique_values: 1200, semantic_type: 'id', description: '' } },
      { column: 'tenure', properties: { dtype: 'number', samples: [3], num_unique_values: 72, semantic_type: 'generic', description: '', min: 0, max: 72 } },
      { column: 'plan', properties: { dtype: 'category', samples: ['basic'], num_unique_values: 3, semantic_type: 'generic', description: '' } },
      { column: 'churned', properties: { dtype: 'boolean', samples: [true], num_unique_values: 2, semantic_type: 'flag', description: '' } },
    ],
  };
}

export const churnLabels: Label[] = [
  { column: 'plan', model_type: 'classifier', confidence: 0.4, reasoning: 'Three levels.', alternatives: [] },
  { column: 'churned', model_type: 'classifier', confidence: 0.9, reasoning: 'Binary column named like a target.', alternatives: ['plan'] },
  { column: 'tenure', model_type: 'regressor', confidence: 0.4, reasoning: 'Continuous.', alternatives: [] },
];

export const churnGoals: Goal[] = [
  { index: 0, question: 'How is tenure distributed?', visualization: 'histogram of tenure', rationale: 'Spread.', columns: ['tenure'] },
  { index: 1, question: 'How many customers per plan?', visualization: 'bar chart of plan', rationale: 'Levels.', columns: ['plan'] },
];

export const churnRecommendations: Recommendation[] = [
  {
    index: 0, feature_name: 'Drop customer_id', description: 'An identifier carries no signal.', columns: ['customer_id'],
    step: { type: 'drop_columns', columns: ['customer_id'] }, expected_impact: 'Avoids overfitting.', complexity: 'low',
  },
  {
    index: 1, feature_name: 'Fill tenure', description: '30 values are missing.', columns: ['tenure'],
    step: { type: 'fill_missing', column: 'tenure', strategy: 'median' }, expected_impact: '', complexity: 'low',
  },
  {
    index: 2, feature_name: 'Bin tenure', description: 'Quartiles of tenure.', columns: ['tenure'],
    step: { type: 'quantile_bins', column: 'tenure', bins: 4 }, expected_impact: 'Robust to outliers.', complexity: 'medium',
  },
];
