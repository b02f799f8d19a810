import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelProfileSchema, ModelVersionSchema, TrainResultSchema, type PartitionProfile } from '../../../src/contract';
import { useService } from './harness';
import { uploadCsv } from './fixtures';

const carsCsv = () => readFileSync(join(__dirname, '../../../media/datasets/cars.csv'), 'utf8');

describe('service: terms and columns under the user’s control', function () {
  this.timeout(120_000);
  const env = useService();
  let datasetId: string;

  before(async () => {
    datasetId = await uploadCsv(env.call, carsCsv(), 'cars.csv');
  });

  const train = (extra: Record<string, unknown>) =>
    env.call('POST', '/v1/models/train', { json: { target_column: 'Miles_per_Gallon', model_name: 'cars', dataset_id: datasetId, model_type: 'regressor', ...extra } });

  async function profileOf(versionId: string): Promise<PartitionProfile> {
    const profile = ModelProfileSchema.parse((await env.call('GET', `/v1/models/profile/${versionId}`)).body);
    assert.ok(profile.model_type !== 'multiclass_classification');
    return profile.partitions[0];
  }

  it('leaves Name out with a warning that names it and why, on the answer and the version’s evaluation; keep_columns keeps it', async () => {
    const res = await train({});
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const result = TrainResultSchema.parse(res.body);
    assert.ok(!result.feature_importances.some((f) => f.feature === 'Name'));
    assert.match(result.warnings?.[0] ?? '', /^Left out Name: it looks like an identifier, not a feature \(it holds free text .*\)\. Name it in keep_columns to train on it\.$/);
    const evaluation = (await env.call('GET', `/v1/models/evaluation/${result.partitions[0].partition_id}`)).body;
    assert.match(evaluation.warnings[0], /^Left out Name/);
    const kept = TrainResultSchema.parse((await train({ keep_columns: ['Name'] })).body);
    assert.ok(kept.feature_importances.some((f) => f.feature === 'Name' && f.importance <= 0.1));
    assert.ok(!(kept.warnings ?? []).some((w) => w.startsWith('Left out')));
  });

  it('fits exactly the listed pairs, keeps an ordinal’s order in the profile, and records both on the version', async () => {
    const order = ['Japan', 'Europe', 'USA'];
    const res = await train({ interactions: [['Weight_in_lbs', 'Horsepower']], feature_types: { Origin: { ordinal: order }, Cylinders: 'categorical' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const result = TrainResultSchema.parse(res.body);
    const part = await profileOf(result.version_id);
    assert.deepEqual(part.interactions?.map((p) => p.features), [['Horsepower', 'Weight_in_lbs']]);
    assert.deepEqual(part.ordinal, ['Origin']);
    assert.deepEqual(part.categorical.Origin.slice(0, -1).map((b) => b.category), order);
    assert.ok('Cylinders' in part.categorical);
    const versions = ModelVersionSchema.array().parse((await env.call('GET', `/v1/models/versions/${result.model_id}`)).body);
    const version = versions.find((v) => v.version_id === result.version_id);
    assert.deepEqual(version?.parameters.interactions, [['Weight_in_lbs', 'Horsepower']]);
    assert.deepEqual(version?.parameters.feature_types, { Origin: { ordinal: order }, Cylinders: 'categorical' });
    const refit = await env.call('POST', `/v1/models/versions/${result.version_id}/refit`, { json: { dataset_id: datasetId, target_column: 'Miles_per_Gallon', smoothing: 1 } });
    assert.equal(refit.status, 200, JSON.stringify(refit.body));
    const refitted = await profileOf(refit.body.version_id);
    assert.deepEqual(refitted.ordinal, ['Origin']);
    assert.deepEqual(refitted.interactions?.map((p) => p.features), [['Horsepower', 'Weight_in_lbs']]);
  });

  it('answers 422 naming the unknown column, the unknown pair and the unlisted category', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ keep_columns: ['Nmae'] }, /keep_columns names Nmae, which is not a column/],
      [{ interactions: [['Horsepower', 'Wheels']] }, /interactions\[0\] names Wheels, which is not a feature/],
      [{ exclude_interactions: [['Horsepower', 'Horsepower']] }, /exclude_interactions\[0\] pairs Horsepower with itself/],
      [{ feature_types: { Origin: { ordinal: ['USA', 'Japan'] } } }, /feature_types\.Origin: Origin holds the category "Europe", which the ordinal order does not list/],
      [{ feature_types: { Origin: 'numeric' } }, /feature_types\.Origin: Origin holds "USA", which is not a number/],
      [{ feature_types: { Origin: 'ordinal' } }, /feature_types/],
    ];
    for (const [body, message] of cases) {
      const res = await train(body);
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.match(`${res.body.error.message} ${res.body.error.fields.map((f: { path: string }) => f.path).join(' ')}`, message);
    }
  });
});
