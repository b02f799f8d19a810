import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelProfileSchema, ModelVersionSchema, type Edit, type ModelProfile, type ModelVersion, type NumericBin, type PartitionProfile } from '../../../src/contract';
import { commonChoices, comparedParts, featureOverlay, findPart, metricRows, rankFeatureChanges, stepDifference, type ComparedPart } from '../../../src/views/versionComparison';
import { DATASETS, useService } from '../service/harness';
import { penguinsCsv, uploadCsv } from '../service/fixtures';

const NUMERIC = 'Horsepower';
const CATEGORICAL = 'Origin';

/** The same bins in both versions: the weighted mean of |Δscore| over the bins, written out independently. */
function sameBinsDifference(a: { score: number; freq: number }[], b: { score: number; freq: number }[]): number {
  assert.equal(a.length, b.length);
  const weights = a.map((bin, i) => (bin.freq + b[i].freq) / 2);
  return weights.reduce((sum, w, i) => sum + w * Math.abs(a[i].score - b[i].score), 0) / weights.reduce((s, w) => s + w, 0);
}

const wholeData = (profile: ModelProfile): ComparedPart => {
  const part = findPart(comparedParts(profile), '__dataset__');
  assert.ok(part, 'the whole-data part');
  return part;
};

describe('version comparison: steps, ranking and metrics of two versions', function () {
  this.timeout(180_000);
  const env = useService();

  async function train(body: Record<string, unknown>): Promise<{ model_id: string; version_id: string }> {
    const res = await env.call('POST', '/v1/models/train', { json: body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  }
  async function refit(versionId: string, body: Record<string, unknown>): Promise<string> {
    const res = await env.call('POST', `/v1/models/versions/${versionId}/refit`, { json: body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.version_id as string;
  }
  async function profileOf(versionId: string): Promise<ModelProfile> {
    return ModelProfileSchema.parse((await env.call('GET', `/v1/models/profile/${versionId}`)).body);
  }
  async function versionOf(modelId: string, versionId: string): Promise<ModelVersion> {
    const versions = ((await env.call('GET', `/v1/models/versions/${modelId}`)).body as unknown[]).map((v) => ModelVersionSchema.parse(v));
    const version = versions.find((v) => v.version_id === versionId);
    assert.ok(version, versionId);
    return version;
  }

  describe('a regressor and its refit with hand edits', () => {
    const edits: Edit[] = [
      { feature: NUMERIC, op: 'shift', bins: [0, 1], value: 2 },
      { feature: CATEGORICAL, op: 'set', bins: [0, 0], value: 1.5 },
    ];
    let older: { version: ModelVersion; profile: ModelProfile };
    let newer: { version: ModelVersion; profile: ModelProfile };
    let coarser: ModelProfile;

    before(async () => {
      const datasetId = await uploadCsv(env.call, readFileSync(join(DATASETS, 'cars.csv'), 'utf8'), 'cars.csv');
      const request = { target_column: 'Miles_per_Gallon', model_name: 'cars', dataset_id: datasetId, model_type: 'regressor', drop_columns: ['Name', 'Year'] };
      const trained = await train(request);
      const editedId = await refit(trained.version_id, { edits, dataset_id: datasetId, target_column: 'Miles_per_Gallon' });
      const { version_id: coarserId } = await train({ ...request, model_id: trained.model_id, method: 'xplainable', max_depth: 2 });
      older = { version: await versionOf(trained.model_id, trained.version_id), profile: await profileOf(trained.version_id) };
      newer = { version: await versionOf(trained.model_id, editedId), profile: await profileOf(editedId) };
      coarser = await profileOf(coarserId);
    });

    it('ranks the edited features first, with the mean step difference over their bins, and every other feature at 0', () => {
      assert.equal(newer.version.edits?.length, 2);
      const [a, b] = [wholeData(newer.profile), wholeData(older.profile)];
      const ranked = rankFeatureChanges(a, b, newer.version.edits);
      assert.deepEqual(new Set(ranked.slice(0, 2).map((c) => c.feature)), new Set([NUMERIC, CATEGORICAL]));
      for (const change of ranked.slice(0, 2)) {
        assert.equal(change.edits, 1, change.feature);
        const [after, before] = [a.profile, b.profile].map((p) => p.numeric[change.feature] ?? p.categorical[change.feature]);
        assert.ok(Math.abs(change.difference - sameBinsDifference(after, before)) < 1e-12, change.feature);
        assert.ok(change.difference > 0.1, `${change.feature} moved by ${change.difference}`);
      }
      for (const change of ranked.slice(2)) {
        assert.ok(change.difference < 1e-9, `${change.feature} did not move, yet ${change.difference}`);
        assert.equal(change.edits, 0);
      }
    });

    it('is symmetric and 0 for a version compared with itself, also when the bins differ', () => {
      const [a, b, c] = [wholeData(newer.profile).profile, wholeData(older.profile).profile, wholeData(coarser).profile];
      assert.notDeepEqual(c.numeric[NUMERIC].map((bin) => bin.upper), b.numeric[NUMERIC].map((bin) => bin.upper), 'the version of the other method has other bins');
      for (const feature of [...Object.keys(b.numeric), ...Object.keys(b.categorical)]) {
        assert.equal(stepDifference(b, b, feature), 0, feature);
        assert.ok(Math.abs(stepDifference(b, c, feature) - stepDifference(c, b, feature)) < 1e-12, feature);
        assert.ok(Number.isFinite(stepDifference(a, c, feature)), feature);
      }
      assert.ok(stepDifference(c, b, NUMERIC) > 0);
    });

    it('overlays both versions of a feature on shared scales', () => {
      const overlay = featureOverlay(wholeData(newer.profile).profile, wholeData(coarser).profile, NUMERIC);
      assert.equal(overlay.newer?.kind, 'numeric');
      assert.equal(overlay.older?.kind, 'numeric');
      const scores = [overlay.newer, overlay.older].flatMap((s) => (s?.kind === 'numeric' ? s.scoreSteps.map((p) => p.y) : []));
      assert.ok(scores.every((y) => y >= overlay.scales.score[0] && y <= overlay.scales.score[1]));
      const xs = [overlay.newer, overlay.older].flatMap((s) => (s?.kind === 'numeric' ? s.scoreSteps.map((p) => p.x) : []));
      assert.ok(overlay.scales.domain && xs.every((x) => x >= overlay.scales.domain![0] && x <= overlay.scales.domain![1]));

      const categories = featureOverlay(wholeData(newer.profile).profile, wholeData(older.profile).profile, CATEGORICAL);
      const bins = wholeData(older.profile).profile.categorical[CATEGORICAL].filter((bin) => bin.category !== null);
      assert.deepEqual(new Set(categories.categories), new Set(bins.map((bin) => bin.category)));
      const edited = bins[0].category!;
      const at = categories.categories.indexOf(edited);
      assert.notEqual(categories.newerScores[at], categories.olderScores[at], 'the set category moved');
    });

    it('lists both versions\u2019 test metrics with the change and the better version', () => {
      const rows = metricRows(newer.version.test_metrics, older.version.test_metrics);
      assert.deepEqual(rows.map((r) => r.metric), ['R²', 'Explained variance', 'RMSE', 'MAE', 'MAPE']);
      const rmse = rows.find((r) => r.metric === 'RMSE');
      assert.ok(rmse && rmse.newer !== null && rmse.older !== null);
      assert.equal(rmse.newer, (newer.version.test_metrics as { rmse: number }).rmse);
      assert.equal(rmse.change, rmse.newer - rmse.older);
      assert.equal(rmse.better, rmse.newer < rmse.older ? 'newer' : rmse.newer > rmse.older ? 'older' : 'same');
      const r2 = rows.find((r) => r.metric === 'R²');
      assert.ok(r2 && r2.newer !== null && r2.older !== null);
      assert.equal(r2.better, r2.newer > r2.older ? 'newer' : r2.newer < r2.older ? 'older' : 'same');
      assert.deepEqual(metricRows(null, null), []);
    });
  });

  it('compares a multiclass model per class: only the edited class moves', async () => {
    const datasetId = await uploadCsv(env.call, penguinsCsv(), 'penguins.csv');
    const trained = await train({ target_column: 'Species', model_name: 'species', dataset_id: datasetId });
    const feature = 'Flipper Length (mm)';
    const editedId = await refit(trained.version_id, { edits: [{ feature, op: 'shift', value: 1, bins: [0, 0], class: 'Gentoo' }], dataset_id: datasetId, target_column: 'Species' });
    const [newer, older] = [comparedParts(await profileOf(editedId)), comparedParts(await profileOf(trained.version_id))];
    assert.deepEqual(commonChoices(newer, older), { partitions: ['__dataset__'], classes: ['Adelie', 'Chinstrap', 'Gentoo'] });
    const edits = (await versionOf(trained.model_id, editedId)).edits ?? [];
    for (const cls of ['Adelie', 'Chinstrap', 'Gentoo']) {
      const ranked = rankFeatureChanges(findPart(newer, '__dataset__', cls)!, findPart(older, '__dataset__', cls)!, edits);
      const flipper = ranked.find((c) => c.feature === feature)!;
      if (cls === 'Gentoo') {
        assert.equal(ranked[0].feature, feature);
        assert.equal(flipper.edits, 1);
        assert.ok(flipper.difference > 0);
      } else {
        assert.ok(ranked.every((c) => c.difference < 1e-9), cls);
        assert.equal(flipper.edits, 0);
      }
    }
  });

  it('weights a grid cell by its share of each version\u2019s bin, so moved bounds count by how much data lies between them', () => {
    const part = (numeric: NumericBin[]): PartitionProfile => ({ partition: '__dataset__', base_value: 0, feature_importances: [], numeric: { x: numeric }, categorical: {} });
    const a = part([
      { lower: null, upper: 1, score: 0, mean: null, freq: 0.5 },
      { lower: 1, upper: null, score: 1, mean: null, freq: 0.5 },
    ]);
    const b = part([
      { lower: null, upper: 2, score: 0, mean: null, freq: 0.5 },
      { lower: 2, upper: null, score: 1, mean: null, freq: 0.5 },
    ]);
    // Cells (-∞, 1], (1, 2], (2, ∞): weights 0.375, 0.25, 0.375; only the middle one differs, by 1.
    assert.ok(Math.abs(stepDifference(a, b, 'x') - 0.25) < 1e-12);
    const none = part([]);
    assert.ok(Math.abs(stepDifference(a, { ...none, numeric: {} }, 'x') - 0.5) < 1e-12, 'a feature one version lacks is compared with 0');
  });
});
