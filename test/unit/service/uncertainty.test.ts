import assert from 'node:assert/strict';
import { ModelProfileSchema } from '../../../src/contract';
import { useService } from './harness';
import { penguinsCsv, uploadCsv } from './fixtures';

/** Every profile bin (an object with a `score`) and every pair term (with `scores`) anywhere in a profile. */
function binsAndPairs(value: unknown, found: { bins: Record<string, unknown>[]; pairs: Record<string, unknown>[] } = { bins: [], pairs: [] }) {
  if (Array.isArray(value)) value.forEach((v) => binsAndPairs(v, found));
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.score === 'number') found.bins.push(record);
    if (Array.isArray(record.scores)) found.pairs.push(record);
    Object.values(record).forEach((v) => binsAndPairs(v, found));
  }
  return found;
}

describe('service: the uncertainty of every step in the profile', function () {
  this.timeout(120_000);
  const env = useService();
  let datasetId: string;

  before(async () => {
    datasetId = await uploadCsv(env.call, penguinsCsv(), 'penguins.csv');
  });

  const cases = [
    { what: 'a multiclass model, per class', json: { target_column: 'Species', model_type: 'classifier', rare_classes: 'drop' } },
    { what: 'a partitioned regressor with pairs, per partition', json: { target_column: 'Body Mass (g)', model_type: 'regressor', partition_on: 'Island', interactions: 3 } },
  ];
  for (const c of cases) {
    it(`gives score_std on every bin and scores_std on every pair term of ${c.what}, and 0 without bags`, async () => {
      for (const bags of [8, 1]) {
        const trained = await env.call('POST', '/v1/models/train', { json: { ...c.json, model_name: c.what, dataset_id: datasetId, outer_bags: bags } });
        assert.equal(trained.status, 200, JSON.stringify(trained.body));
        const profile = (await env.call('GET', `/v1/models/profile/${trained.body.version_id}`)).body;
        ModelProfileSchema.parse(profile);
        const { bins, pairs } = binsAndPairs(profile);
        assert.ok(bins.length > 20);
        assert.ok(bins.every((b) => typeof b.score_std === 'number' && b.score_std >= 0), 'every bin has its spread');
        assert.equal(bins.some((b) => (b.score_std as number) > 0), bags > 1, `${bags} bag(s)`);
        for (const pair of pairs) {
          assert.deepEqual((pair.scores_std as number[][]).map((row) => row.length), (pair.scores as number[][]).map((row) => row.length));
        }
      }
    });
  }
});
