import assert from 'node:assert/strict';
import { mulberry32 } from '../../../src/engine';
import { ModelProfileSchema, PredictionsSchema, RefitResultSchema, type PartitionProfile } from '../../../src/contract';
import { useService } from './harness';
import { uploadCsv } from './fixtures';

/** A numeric and a categorical feature whose effect is only together (an XOR), a third with a main effect, some missing. */
function xorCsv(rows: number, seed: number, classes: readonly string[] = ['no', 'yes']): string {
  const random = mulberry32(seed);
  const lines = ['x,kind,z,label'];
  for (let i = 0; i < rows; i++) {
    const x = 2 * random() - 1;
    const kind = random() < 0.5 ? 'a' : 'b';
    const z = 2 * random() - 1;
    const s = (x > 0 === (kind === 'a') ? 2 : -2) + z;
    const k = classes.length === 2 ? (random() < 1 / (1 + Math.exp(-2 * s)) ? 1 : 0) : Math.min(classes.length - 1, Math.max(0, Math.floor((s + 3) / 2 + (random() - 0.5))));
    lines.push(`${i % 50 === 0 ? '' : x.toFixed(4)},${kind},${z.toFixed(4)},${classes[k]}`);
  }
  return lines.join('\n');
}

describe('service: pairwise interaction terms', function () {
  this.timeout(120_000);
  const env = useService();
  let datasetId: string;
  let trained: { model_id: string; version_id: string };

  before(async () => {
    datasetId = await uploadCsv(env.call, xorCsv(3000, 1), 'xor.csv');
    const res = await env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'xor', dataset_id: datasetId, model_type: 'classifier' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    trained = res.body;
  });

  async function profileOf(versionId: string): Promise<PartitionProfile> {
    const profile = ModelProfileSchema.parse((await env.call('GET', `/v1/models/profile/${versionId}`)).body);
    assert.ok(profile.model_type !== 'multiclass_classification');
    return profile.partitions[0];
  }

  it('profiles the pair the data holds, with its heat map cells and the missing-value bins', async () => {
    const part = await profileOf(trained.version_id);
    const pair = part.interactions?.find((p) => p.features.join() === 'x,kind');
    assert.ok(pair, JSON.stringify(part.interactions?.map((p) => p.features)));
    assert.deepEqual(pair.bins[0].at(-1), { missing: true });
    assert.ok(pair.bins[1].slice(0, -1).every((b) => 'categories' in b));
    assert.ok(pair.importance > 0.2, `importance ${pair.importance}`);
  });

  it('explains predictions with the pairs: base value + contributions + interaction contributions = score', async () => {
    const res = await env.call('POST', `/v1/models/versions/${trained.version_id}/predict`, { json: { csv_content: xorCsv(40, 9), explain: true } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const out = PredictionsSchema.parse(res.body);
    const pairs = out.interaction_contributions ?? {};
    assert.ok('x × kind' in pairs, Object.keys(pairs).join(', '));
    for (let r = 0; r < out.n; r++) {
      const sum = [...Object.values(out.contributions ?? {}), ...Object.values(pairs)].reduce((s, c) => s + c[r], out.base_value);
      assert.ok(Math.abs(sum - (out.scores ?? [])[r]) < 1e-9, `row ${r}`);
    }
  });

  it('trains without pairs on interactions 0, and refuses a count out of range naming the field', async () => {
    const res = await env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'flat', dataset_id: datasetId, model_type: 'classifier', interactions: 0 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await profileOf(res.body.version_id)).interactions, undefined);
    const bad = await env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'bad', dataset_id: datasetId, model_type: 'classifier', interactions: 101 } });
    assert.equal(bad.status, 422);
    assert.match(JSON.stringify(bad.body), /interactions/);
  });

  it('removes a pair by refit and names an unknown pair in a 422', async () => {
    const res = await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, { json: { dataset_id: datasetId, target_column: 'label', remove_interactions: [['x', 'kind']] } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const refitted = RefitResultSchema.parse(res.body);
    const part = await profileOf(refitted.version_id);
    assert.ok(!(part.interactions ?? []).some((p) => p.features.join() === 'x,kind'));
    const bad = await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, { json: { dataset_id: datasetId, target_column: 'label', remove_interactions: [['x', 'nope']] } });
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    assert.match(JSON.stringify(bad.body), /remove_interactions\[0\].*x × nope is not a pair term/);
  });

  it('gives every class of a multiclass model its own pairs, and explains them per class', async () => {
    const id = await uploadCsv(env.call, xorCsv(3000, 2, ['low', 'mid', 'high']), 'xor3.csv');
    const res = await env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'xor3', dataset_id: id, model_type: 'classifier' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const profile = ModelProfileSchema.parse((await env.call('GET', `/v1/models/profile/${res.body.version_id}`)).body);
    assert.equal(profile.model_type, 'multiclass_classification');
    const withPairs = profile.partitions[0].per_class.filter((c) => c.interactions?.some((p) => p.features.join() === 'x,kind'));
    assert.ok(withPairs.length >= 2, `classes with the pair: ${withPairs.map((c) => c.class).join(', ')}`);
    const predicted = await env.call('POST', `/v1/models/versions/${res.body.version_id}/predict`, { json: { csv_content: xorCsv(20, 3, ['low', 'mid', 'high']), explain: true } });
    const out = PredictionsSchema.parse(predicted.body);
    assert.ok(Object.values(out.class_interaction_contributions ?? {}).some((pairs) => 'x × kind' in pairs));
  });
});
