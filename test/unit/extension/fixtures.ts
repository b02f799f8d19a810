import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelInfo, ModelVersion, Partition } from '../../../src/contract';

export function model(overrides: Partial<ModelInfo> = {}): ModelInfo {
  return {
    model_id: 'm1',
    model_name: 'Churn',
    model_description: 'Who leaves',
    model_type: 'binary_classification',
    target_name: 'churned',
    algorithm: 'XClassifier',
    partition_on: null,
    team_id: 't1',
    created: '2026-11-21T10:15:30Z',
    created_by: 'ana',
    number_of_versions: 2,
    latest_version_id: 'v2',
    archived: false,
    ...overrides,
  };
}

export function version(overrides: Partial<ModelVersion> = {}): ModelVersion {
  return {
    version_id: 'v2',
    model_id: 'm1',
    version_number: 2,
    created: '2026-11-22T01:05:09Z',
    created_by: 'ana',
    source: 'refit',
    parent_version_id: 'v1',
    dataset_id: 'd1',
    parameters: { max_depth: 6, weight: 0.5, alpha: 0.1 },
    partitions: 1,
    linked_preprocessor: null,
    test_metrics: { accuracy: 0.8, roc_auc: 0.91234, f1: 0.7, precision: 0.7, recall: 0.7, log_loss: 0.4, brier: 0.1, mcc: 0.5, confusion_matrix: [[1, 2], [3, 4]] },
    ...overrides,
  };
}

export function partition(overrides: Partial<Partition> = {}): Partition {
  return { partition_id: 'p1', partition: '__dataset__', n_train: 80, n_test: 20, base_value: 0.25, ...overrides };
}

/** Every .ts file under `dir`, recursively. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}
