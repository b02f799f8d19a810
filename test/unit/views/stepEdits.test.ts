import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XModelsClient } from '../../../src/client';
import type { Edit } from '../../../src/contract/edits';
import type { ModelProfile, PartitionProfile } from '../../../src/contract/models';
import { panelProfile, type EditScope } from '../../../src/views/classProfiles';
import { editApplies, editedScores, editedSeries, previewSeries, scopeFields } from '../../../src/views/stepEdits';
import type { FeatureSeries } from '../../../src/views/profileSeries';
import { startLocalService, type LocalService } from '../client/localService';
import { DATASETS } from '../service/harness';
import { partitionProfile } from '../panels/fixtures';

const whole: EditScope = { partition: '__dataset__', namesPartition: false };
const age = partitionProfile.numeric.age; // scores -0.2, 0.1, 0.3, missing 0.05; freq 0.4, 0.35, 0.2, 0.05

function close(actual: readonly number[] | null, expected: readonly number[], what = 'steps'): void {
  assert.ok(actual, `${what}: removed`);
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) < 1e-9, `${what}[${i}]: ${v} vs ${expected[i]}`));
}

const scoresOf = (series: FeatureSeries): number[] => [
  ...(series.kind === 'numeric' ? series.bins.map((b) => b.score) : series.categories.map((c) => c.score)),
  ...(series.missing ? [series.missing.score] : []),
];

describe('views: hand edits drawn before the preview answers', () => {
  it('applies each edit to the profile\u2019s bins in order, the missing-value bin last', () => {
    const xplainable = (edits: Edit[]) => editedScores(age, edits, 'age', whole, 'xplainable');
    close(xplainable([{ feature: 'age', op: 'shift', bins: [0, 1], value: 1 }]), [0.8, 1.1, 0.3, 0.05]);
    close(xplainable([{ feature: 'age', op: 'set', bins: 'missing', value: 2 }]), [-0.2, 0.1, 0.3, 2]);
    close(xplainable([{ feature: 'age', op: 'interpolate', bins: [0, 2] }]), [-0.2, 0.05, 0.3, 0.05]);
    // Merge weighs by frequency: (−0.2·0.4 + 0.1·0.35) / 0.75.
    close(xplainable([{ feature: 'age', op: 'merge', bins: [0, 1] }]), [-0.06, -0.06, 0.3, 0.05]);
    // Never increasing: one pooled step, the frequency-weighted mean (−0.08 + 0.035 + 0.06) / 0.95.
    close(xplainable([{ feature: 'age', op: 'monotone', bins: [0, 2], direction: -1 }]), [0.015 / 0.95, 0.015 / 0.95, 0.015 / 0.95, 0.05]);
    close(xplainable([{ feature: 'age', op: 'set', value: 9 }, { feature: 'age', op: 'reset', bins: [1, 1] }]), [9, 0.1, 9, 0.05], 'reset puts back the version\u2019s step');
    close(xplainable([{ feature: 'age', op: 'shift', value: 1 }, { feature: 'age', op: 'reset' }]), [-0.2, 0.1, 0.3, 0.05], 'reset of every bin');
    assert.equal(xplainable([{ feature: 'age', op: 'remove' }]), null);
  });

  it('re-centres a boosted feature whose steps changed on its frequencies, and leaves an unchanged one be', () => {
    const shifted = editedScores(age, [{ feature: 'age', op: 'shift', bins: [0, 0], value: 1 }], 'age', whole, 'boosted');
    // Steps 0.8, 0.1, 0.3, 0.05 less their frequency-weighted mean, 0.4175.
    close(shifted, [0.3825, -0.3175, -0.1175, -0.3675]);
    close(editedScores(age, [{ feature: 'age', op: 'shift', value: 1 }, { feature: 'age', op: 'reset' }], 'age', whole, 'boosted'), [-0.2, 0.1, 0.3, 0.05]);
  });

  it('applies only the edits of the feature, partition and class shown', () => {
    const scope: EditScope = { partition: 'north', class: 'setosa', namesPartition: true };
    assert.deepEqual(scopeFields(scope), { partition: 'north', class: 'setosa' });
    assert.deepEqual(scopeFields(whole), {});
    assert.equal(editApplies({ feature: 'age', op: 'reset' }, 'age', scope), true, 'no partition or class: every one');
    assert.equal(editApplies({ feature: 'age', op: 'reset', partition: 'south' }, 'age', scope), false);
    assert.equal(editApplies({ feature: 'age', op: 'reset', class: 'virginica' }, 'age', scope), false);
    assert.equal(editApplies({ feature: 'city', op: 'reset' }, 'age', scope), false);
    const series = editedSeries(partitionProfile, 'city', [{ feature: 'city', op: 'set', bins: [1, 1], value: 0.5, class: 'virginica' }], scope, 'xplainable');
    assert.deepEqual(series && scoresOf(series), [0.2, -0.1, 0.01]);
    assert.equal(editedSeries(partitionProfile, 'nope', [], scope, 'xplainable'), undefined);
  });

  describe('the same steps as the service\u2019s preview', function () {
    this.timeout(180_000);
    let service: LocalService;
    let client: XModelsClient;
    let carsId: string;

    before(async () => {
      service = await startLocalService();
      client = new XModelsClient({ baseUrl: service.url, apiKey: service.api_key, proxy: null });
      carsId = (await client.datasets.upload({ file_path: join(DATASETS, 'cars.csv') })).dataset_id;
    });
    after(async () => {
      await client.close();
      await service.stop();
    });

    async function trained(body: Record<string, unknown>): Promise<{ versionId: string; datasetId: string; profile: ModelProfile }> {
      const result = await client.models.trainModel({ target_column: 'Miles_per_Gallon', model_type: 'regressor', drop_columns: ['Name', 'Year'], dataset_id: carsId, model_name: 'cars', ...body } as never);
      return { versionId: result.version_id, datasetId: result.dataset_id as string, profile: await client.models.getModelProfile(result.version_id) };
    }

    /** Previews `edits` and checks every edited feature of the entry shown against the panel's own steps. */
    async function assertSameSteps(
      { versionId, datasetId, profile }: { versionId: string; datasetId: string; profile: ModelProfile },
      entry: string,
      method: 'boosted' | 'xplainable',
      edits: Edit[],
    ): Promise<void> {
      const shown = panelProfile(profile);
      const partition = shown.profile.partitions.find((p) => p.partition === entry) as PartitionProfile;
      const scope = shown.scopes[entry];
      const preview = await client.models.previewEdits(versionId, { edits, dataset_id: datasetId, target_column: profile.target_name });
      for (const feature of new Set(edits.map((e) => e.feature))) {
        const fromService = previewSeries(preview.parts, feature, scope);
        const drawn = editedSeries(partition, feature, edits, scope, method);
        assert.notEqual(fromService, undefined, `the preview has ${feature} in ${entry}`);
        if (fromService === null || drawn === null) {
          assert.equal(drawn, fromService, `${feature} removed on both sides`);
          continue;
        }
        close(scoresOf(drawn as FeatureSeries), scoresOf(fromService as FeatureSeries), `${JSON.stringify(edits)} ${feature}`);
      }
    }

    for (const method of ['boosted', 'xplainable'] as const) {
      it(`for every edit of a ${method} regressor`, async () => {
        const model = await trained({ method });
        const { profile } = model;
        assert.equal(profile.model_type, 'regression');
        const bins = (profile.model_type === 'regression' ? profile.partitions[0].numeric.Horsepower.length : 0) - 1;
        const cases: Edit[][] = [
          [{ feature: 'Horsepower', op: 'merge', bins: [1, 4] }],
          [{ feature: 'Horsepower', op: 'monotone', bins: [0, bins - 1], direction: 1 }],
          [{ feature: 'Horsepower', op: 'interpolate', bins: [2, 6] }, { feature: 'Horsepower', op: 'shift', bins: 'missing', value: 0.5 }],
          [{ feature: 'Horsepower', op: 'shift', bins: [0, 2], value: -1 }, { feature: 'Horsepower', op: 'reset', bins: [1, 1] }],
          [{ feature: 'Origin', op: 'set', bins: [0, 1], value: 1 }, { feature: 'Origin', op: 'monotone', bins: [0, 2], direction: -1 }],
          ...(method === 'boosted' ? [[{ feature: 'Weight_in_lbs', op: 'remove' } as Edit]] : []),
        ];
        for (const edits of cases) await assertSameSteps(model, '__dataset__', method, edits);
      });
    }

    it('for one partition of a partitioned model and one class of a multiclass one', async () => {
      const partitioned = await trained({ method: 'boosted', partition_on: 'Origin', drop_columns: ['Name', 'Year'] });
      const scope = panelProfile(partitioned.profile).scopes.Japan;
      await assertSameSteps(partitioned, 'Japan', 'boosted', [
        { feature: 'Horsepower', op: 'monotone', bins: [0, 3], direction: -1, ...scopeFields(scope) },
      ]);
      const penguins = await client.datasets.upload({ csv_content: readFileSync(join(DATASETS, 'penguins.csv'), 'utf8'), name: 'penguins.csv' });
      const species = await client.models.trainModel({ dataset_id: penguins.dataset_id, target_column: 'Species', model_name: 'species', method: 'boosted' });
      const profile = await client.models.getModelProfile(species.version_id);
      const gentoo = panelProfile(profile).scopes.Gentoo;
      assert.deepEqual(scopeFields(gentoo), { class: 'Gentoo' });
      await assertSameSteps({ versionId: species.version_id, datasetId: penguins.dataset_id, profile }, 'Gentoo', 'boosted', [
        { feature: 'Flipper Length (mm)', op: 'merge', bins: [0, 2], ...scopeFields(gentoo) },
        { feature: 'Island', op: 'shift', bins: 'missing', value: 0.3, ...scopeFields(gentoo) },
      ]);
    });
  });
});
