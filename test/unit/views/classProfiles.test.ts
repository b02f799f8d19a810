import assert from 'node:assert/strict';
import { fitMulticlass, multiclassProfile } from '../../../src/engine';
import { loadDataset } from '../engine/helpers';
import type { ModelProfile } from '../../../src/contract/models';
import { ALL_CLASSES, panelProfile } from '../../../src/views/classProfiles';

describe('profile panel: multiclass profiles', () => {
  const penguins = loadDataset('penguins');
  const fitted = fitMulticlass(penguins, { target: 'Species', modelType: 'classifier', method: 'xplainable', partitionOn: 'Sex' });
  const wire: ModelProfile = { version_id: 'v1', ...multiclassProfile(fitted) };

  it('offers every class of every partition plus an all-classes importance view', () => {
    const { profile, classes, scopes } = panelProfile(wire);
    assert.deepEqual(classes, ['Adelie', 'Chinstrap', 'Gentoo']);
    const names = profile.partitions.map((p) => p.partition);
    assert.deepEqual(names.slice(0, 4), ['Adelie · All data', 'Chinstrap · All data', 'Gentoo · All data', `${ALL_CLASSES} · All data`]);
    assert.equal(names.length, 4 * fitted.classModels[0].partitions.size);
    const gentoo = profile.partitions[2];
    assert.equal(gentoo.base_value, fitted.classModels[2].partitions.get('__dataset__')?.baseValue);
    assert.ok(Object.keys(gentoo.numeric).includes('Flipper Length (mm)'));
    assert.deepEqual(profile.partitions[3].feature_importances, wire.model_type === 'multiclass_classification' ? wire.partitions[0].feature_importances : []);
    const partitions = [...fitted.classModels[0].partitions.keys()];
    assert.deepEqual(scopes['Gentoo · All data'], { partition: '__dataset__', class: 'Gentoo', namesPartition: partitions.length > 1 });
    assert.equal(scopes[`${ALL_CLASSES} · All data`], undefined, 'the all-classes view edits nothing');
    assert.equal(Object.keys(scopes).length, 3 * partitions.length);
  });

  it('passes a binary profile through unchanged, each partition its own scope', () => {
    const part = { base_value: 0, feature_importances: [], numeric: {}, categorical: {} };
    const binary: ModelProfile = { version_id: 'v2', model_type: 'binary_classification', target_name: 'y', partitions: [{ partition: '__dataset__', ...part }] };
    assert.deepEqual(panelProfile(binary), { profile: binary, scopes: { __dataset__: { partition: '__dataset__', namesPartition: false } } });
    const partitioned: ModelProfile = { ...binary, partitions: [{ partition: 'north', ...part }, { partition: 'south', ...part }] };
    assert.deepEqual(panelProfile(partitioned).scopes.south, { partition: 'south', namesPartition: true });
  });
});
