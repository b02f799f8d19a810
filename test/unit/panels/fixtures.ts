import type { DatasetSummary, Goal, Label, Recommendation } from '../../../src/contract/autotrain';
import type {
  ClassifierEvaluationMetrics,
  FeatureInfoEntry,
  PartitionProfile,
  Profile,
  RegressorEvaluationMetrics,
  ThresholdScore,
} from '../../../src/contract/models';

export const partitionProfile: PartitionProfile = {
  partition: '__dataset__',
  base_value: 0.3,
  feature_importances: [
    { feature: 'age', importance: 0.6 },
    { feature: 'city', importance: 0.3 },
    { feature: 'Balance', importance: 0.1 },
  ],
  numeric: {
    age: [
      { lower: null, upper: 30, score: -0.2, mean: 0.1, freq: 0.4 },
      { lower: 30, upper: 50, score: 0.1, mean: 0.35, freq: 0.35 },
      { lower: 50, upper: null, score: 0.3, mean: 0.6, freq: 0.2 },
      { score: 0.05, mean: 0.3, freq: 0.05, missing: true },
    ],
    Balance: [
      { lower: null, upper: null, score: 0, mean: 0.3, freq: 1 },
      { score: 0, mean: null, freq: 0, missing: true },
    ],
  },
  categorical: {
    city: [
      { category: 'Paris', score: 0.2, mean: 0.5, freq: 0.5 },
      { category: 'Lyon', score: -0.1, mean: 0.2, freq: 0.45 },
      { category: null, score: 0.01, mean: 0.3, freq: 0.05, missing: true },
    ],
  },
};

export const profile: Profile = {
  version_id: 'v-1',
  model_type: 'binary_classification',
  target_name: 'churn',
  partitions: [partitionProfile, { ...partitionProfile, partition: 'north', base_value: 0.4 }],
};

/** Scores with tp/fp/tn/fn counts for 10 positives and 10 negatives at thresholds 0.00–1.00. */
export function thresholdScores(): ThresholdScore[] {
  return Array.from({ length: 101 }, (_, i) => {
    const threshold = i / 100;
    const tp = Math.round(10 * (1 - threshold));
    const fp = Math.round(10 * (1 - threshold) ** 2);
    return { threshold, tp, fp, tn: 10 - fp, fn: 10 - tp, precision: null, recall: null, specificity: null, accuracy: null, f1: null };
  });
}

export const classifierMetrics: ClassifierEvaluationMetrics = {
  accuracy: 0.8,
  roc_auc: 0.85,
  f1: 0.75,
  precision: 0.7,
  recall: 0.8,
  log_loss: 0.4,
  brier: 0.15,
  mcc: 0.6,
  confusion_matrix: [
    [8, 2],
    [2, 8],
  ],
  scores: thresholdScores(),
  roc: { fpr: [1, 0, 0.5], tpr: [1, 0, 0.8] },
  precision_recall_curve: { precision: [0.5, 1, 0.8], recall: [1, 0, 0.6] },
  auc_pr: 0.8,
  probability_bins: [
    { class: '0', values: Array.from({ length: 101 }, (_, i) => (i < 50 ? 2 : 0)) },
    { class: '1', values: Array.from({ length: 101 }, (_, i) => (i === 90 ? 5 : 0)) },
  ],
};

export const regressorMetrics: RegressorEvaluationMetrics = {
  r2: 0.9,
  rmse: 1.5,
  mae: 1.1,
  mape: null,
  explained_variance: 0.91,
  charts: { true: [1, 2, 3, 4, Number.NaN], prediction: [1.5, 2, 2, 4, 5] },
  residual_bins: { edges: [], counts: [] },
};

export function featureEntry(overrides: Partial<FeatureInfoEntry> = {}): FeatureInfoEntry {
  return {
    feature: 'age',
    type: 'numeric',
    health_info: { missing_pct: 0, min: 18, max: 90, mean: 41.5, skewness: 0.3 },
    distribution: { kind: 'histogram', edges: [0, 10, 20], counts: [3, 7] },
    importance: 0.5,
    ...overrides,
  };
}

export const summary: DatasetSummary = {
  dataset_id: 'ds-1',
  name: 'customers',
  file_name: 'customers.csv',
  dataset_description: 'Customer records',
  rows: 200,
  columns: ['age', 'city', 'churn'],
  dtypes: { age: 'number', city: 'category', churn: 'boolean' },
  missing_values: { age: 10, city: 0 },
  field_names: ['age', 'city', 'churn'],
  fields: [
    {
      column: 'age',
      properties: { dtype: 'number', samples: [30, 41, 52], num_unique_values: 60, semantic_type: 'age', description: '', min: 20, max: 70, mean: 40, std: 10 },
    },
    {
      column: 'city',
      properties: { dtype: 'category', samples: ['Paris', 'Lyon'], num_unique_values: 20, semantic_type: 'city', description: '' },
    },
    {
      column: 'churn',
      properties: { dtype: 'boolean', samples: [true, false], num_unique_values: 2, semantic_type: 'flag', description: '' },
    },
  ],
};

export const goal: Goal = { index: 0, question: 'How does age vary?', visualization: 'histogram of age', rationale: 'Spread', columns: ['age'] };

export const label: Label = { column: 'churn', model_type: 'classifier', confidence: 0.9, reasoning: 'Binary', alternatives: [] };

export const recommendations: Recommendation[] = [
  {
    index: 0,
    feature_name: 'age_filled',
    description: 'Fill missing ages',
    columns: ['age'],
    step: { type: 'fill_missing', column: 'age', strategy: 'median' },
    expected_impact: 'fewer missing values',
    complexity: 'low',
  },
  {
    index: 1,
    feature_name: 'age_log',
    description: 'Log of age',
    columns: ['age'],
    step: { type: 'log1p', column: 'age' },
    expected_impact: 'less skew',
    complexity: 'low',
  },
];

/**
 * A deterministic CSV with `features` numeric columns (f1, f2, …), one category column `segment`, and a binary
 * target `target` (yes/no) that depends on f1, f2, f3 and the segment.
 */
export function binaryCsv(features: number, rows: number, seed = 11): string {
  let state = seed;
  const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
  const segments = ['north', 'south', 'east'];
  const lines = [[...Array.from({ length: features }, (_, i) => `f${i + 1}`), 'segment', 'target'].join(',')];
  for (let r = 0; r < rows; r++) {
    const values = Array.from({ length: features }, () => Math.round(random() * 1000) / 10);
    const segment = segments[Math.floor(random() * segments.length)];
    const score = values[0] + (values[1] ?? 0) - (values[2] ?? 0) + (segment === 'north' ? 20 : 0) + random() * 40;
    lines.push([...values.map((v, i) => (i === 1 && r % 17 === 0 ? '' : String(v))), segment, score > 70 ? 'yes' : 'no'].join(','));
  }
  return lines.join('\n') + '\n';
}
