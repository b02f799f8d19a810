import assert from 'node:assert/strict';
import { contextValueFor } from '../../../src/tree/contextValue';
import {
  escapeMarkdown,
  headlineMetric,
  modelDescription,
  modelTooltip,
  partitionLabel,
  shortDate,
  sortPartitions,
  sortVersions,
  versionDescription,
  versionTooltip,
} from '../../../src/tree/nodeText';
import { nodeKey, type TreeFeatures, type VersionNode } from '../../../src/tree/nodes';
import { model, partition, version } from '../extension/fixtures';

const all: TreeFeatures = { deleteModel: true, predict: true, preprocessors: true, sources: true, copyModel: true, edits: true };
const none: TreeFeatures = { deleteModel: false, predict: false, preprocessors: false, sources: false, copyModel: false, edits: false };

function versionNode(overrides: Parameters<typeof version>[0] = {}, latest = true): VersionNode {
  const v = version(overrides);
  return { kind: 'version', modelId: v.model_id, versionId: v.version_id, version: v, model: model(), latest };
}

describe('tree contextValue', () => {
  it('lists one token per fact, so menus can match /^version;.*refittable;/', () => {
    const value = contextValueFor(versionNode({ linked_preprocessor: { preprocessor_id: 'pp', version_id: 'ppv' } }), all);
    assert.equal(value, 'version;refittable;hasPreprocessor;linkable;predictable;latest;editable;');
    assert.match(value, /^version;.*refittable;/);
  });

  it('marks a version saved with hand edits (it can export them) and one that edits can be applied to', () => {
    const edit = { feature: 'tenure', op: 'shift' as const, bins: [0, 2] as [number, number], value: 0.1, applied_at: '2026-11-22T01:05:09Z', applied_by: 'ana' };
    assert.equal(contextValueFor(versionNode({ edits: [edit] }, false), all), 'version;refittable;linkable;predictable;edited;editable;');
    assert.equal(contextValueFor(versionNode({ edits: [edit] }, false), none), 'version;refittable;edited;');
    assert.equal(contextValueFor(versionNode({ edits: [], dataset_id: null }, false), all), 'version;linkable;predictable;', 'no edits to export, and no dataset to check edits on');
  });

  it('leaves out facts that do not hold and features the service lacks', () => {
    assert.equal(contextValueFor(versionNode({ dataset_id: null }, false), none), 'version;');
    assert.equal(contextValueFor({ kind: 'model', modelId: 'm1', model: model() }, all), 'model;deletable;copyable;');
    assert.equal(contextValueFor({ kind: 'model', modelId: 'm1', model: model() }, none), 'model;');
  });

  it('marks the whole-data partition and message nodes', () => {
    const p = partition();
    assert.equal(contextValueFor({ kind: 'partition', modelId: 'm1', versionId: 'v2', partitionId: p.partition_id, versionNumber: 2, partition: p, model: model() }, all), 'partition;wholeDataset;');
    assert.equal(contextValueFor({ kind: 'error', parentKey: 'root', message: 'x' }, all), 'error;');
    assert.equal(contextValueFor({ kind: 'loadMore', shown: 200, total: 450 }, all), 'loadMore;');
  });

  it('keys nodes by kind and id', () => {
    assert.equal(nodeKey(versionNode()), 'version:v2');
    assert.equal(nodeKey({ kind: 'empty', parentKey: 'model:m1', message: 'No versions' }), 'empty:model:m1');
  });
});

describe('tree node text', () => {
  it('describes a model by type, target and version count', () => {
    assert.equal(modelDescription(model()), 'classifier · churned · 2 versions');
    assert.equal(modelDescription(model({ model_type: 'regression', number_of_versions: 1, target_name: 'price' })), 'regressor · price · 1 version');
    const species = model({ model_type: 'multiclass_classification', target_name: 'Species', classes: ['Adelie', 'Chinstrap', 'Gentoo'] });
    assert.equal(modelDescription(species), 'classifier (3 classes) · Species · 2 versions');
    assert.match(modelTooltip({ kind: 'model', modelId: 'm1', model: species }), /\| Classes \| Adelie, Chinstrap, Gentoo \|/);
  });

  it('describes a version by source, date, headline metric and preprocessor', () => {
    assert.equal(versionDescription(version()), 'AUC 0.912 · refit · 2026-11-22 01:05');
    assert.equal(
      versionDescription(version({ source: 'train', linked_preprocessor: { preprocessor_id: 'p', version_id: 'pv' }, test_metrics: null })),
      'train · 2026-11-22 01:05 · preprocessor',
    );
    assert.equal(versionDescription(version({ parameters: { objective: 'poisson' } })), 'AUC 0.912 · poisson · refit · 2026-11-22 01:05');
    assert.equal(versionDescription(version({ parameters: { objective: 'squared_error' } })), 'AUC 0.912 · refit · 2026-11-22 01:05');
  });

  it('picks R² for regressors and accuracy when AUC is missing', () => {
    assert.equal(headlineMetric({ r2: 0.84321, rmse: 1, mae: 1, mape: 1, explained_variance: 1 }), 'R² 0.843');
    assert.equal(headlineMetric({ ...(version().test_metrics as object), roc_auc: null } as never), 'accuracy 0.800');
    assert.equal(headlineMetric(null), undefined);
  });

  it('formats dates in UTC and keeps unparseable ones', () => {
    assert.equal(shortDate('2026-01-02T03:04:05+02:00'), '2026-01-02 01:04');
    assert.equal(shortDate('yesterday'), 'yesterday');
  });

  it('labels partitions by value, the whole-data one as All data (as the panels do)', () => {
    assert.equal(partitionLabel(partition(), 'island'), 'All data');
    assert.equal(partitionLabel(partition({ partition: 'Dream' }), 'island'), 'island = Dream');
  });

  it('sorts versions newest first and the whole-data partition first', () => {
    const sorted = sortVersions([version({ version_number: 1 }), version({ version_number: 3 }), version({ version_number: 2 })]);
    assert.deepEqual(sorted.map((v) => v.version_number), [3, 2, 1]);
    const parts = sortPartitions([partition({ partition: 'b10' }), partition({ partition: 'b9' }), partition()]);
    assert.deepEqual(parts.map((p) => p.partition), ['__dataset__', 'b9', 'b10']);
  });

  it('writes Markdown tooltips with escaped names', () => {
    const tip = modelTooltip({ kind: 'model', modelId: 'm1', model: model({ model_name: 'a [link](x)' }) });
    assert.ok(tip.startsWith('**a \\[link\\]\\(x\\)**'), tip);
    assert.match(tip, /\| Target \| churned \|/);
    assert.match(versionTooltip(versionNode()), /\| Test roc_auc \| 0\.9123 \|/);
    assert.equal(escapeMarkdown('*x*'), '\\*x\\*');
  });
});
