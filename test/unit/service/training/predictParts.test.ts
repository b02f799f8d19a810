import assert from 'node:assert/strict';
import { PredictionsSchema } from '../../../../src/contract';
import { PREDICT_PART_ROWS } from '../../../../src/service/training/trainer';
import { useService } from '../harness';
import { uploadCsv } from '../fixtures';

/** Rows with two numeric features, a group (a fourth one unseen in training), and a binary, a numeric and a three-class target. */
function csv(rows: number, groups: number): string {
  const lines = ['x1,x2,group,label,amount,kind'];
  for (let i = 0; i < rows; i++) {
    const x1 = (i * 7919) % 1000;
    const x2 = ((i * 104729) % 970) / 10;
    const group = ['a', 'b', 'c', 'd'][i % groups];
    const score = x1 + x2 * 5 + (group === 'a' ? 150 : 0);
    lines.push(`${x1},${x2},${group},${score > 700 ? 'yes' : 'no'},${(score / 7).toFixed(2)},${['low', 'mid', 'high'][Math.min(2, Math.floor(score / 500))]}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('service: a large stored dataset predicted in parts over the worker threads', function () {
  this.timeout(180_000);
  const env = useService();
  // Larger than two parts, so the idle pool splits it.
  const big = csv(2 * PREDICT_PART_ROWS + 7_001, 4);
  let datasetId = '';

  before(async () => {
    datasetId = await uploadCsv(env.call, big, 'big.csv');
  });

  /** The raw response bytes of a predict, and its status. */
  async function predictBytes(versionId: string, source: { dataset_id: string } | { csv_content: string }): Promise<{ status: number; text: string }> {
    const res = await fetch(`${env.service.url}/v1/models/versions/${versionId}/predict`, {
      method: 'POST',
      headers: { api_key: env.service.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ ...source, explain: true }),
    });
    return { status: res.status, text: await res.text() };
  }

  const cases = [
    { name: 'binary', target: 'label', model_type: 'classifier', drop_columns: ['amount', 'kind'] },
    { name: 'regressor', target: 'amount', model_type: 'regressor', drop_columns: ['label', 'kind'] },
    { name: 'multiclass', target: 'kind', model_type: 'classifier', drop_columns: ['label', 'amount'] },
    { name: 'partitioned binary', target: 'label', model_type: 'classifier', drop_columns: ['amount', 'kind'], partition_on: 'group' },
  ];
  for (const { name, target, ...request } of cases) {
    it(`returns a ${name} model's predictions byte for byte as one unsplit predict of the same rows`, async () => {
      const trained = await env.call('POST', '/v1/models/train', {
        json: { csv_content: csv(900, 3), target_column: target, model_name: `parts ${name}`, ...request },
      });
      assert.equal(trained.status, 200, JSON.stringify(trained.body));
      const split = await predictBytes(trained.body.version_id, { dataset_id: datasetId });
      // Inline CSV is never split: one worker predicts every row.
      const whole = await predictBytes(trained.body.version_id, { csv_content: big });
      assert.equal(split.status, 200, split.text.slice(0, 500));
      assert.equal(whole.status, 200, whole.text.slice(0, 500));
      assert.ok(split.text === whole.text, 'the split predict differs from the unsplit one');
      const body = PredictionsSchema.parse(JSON.parse(split.text));
      assert.equal(body.n, 2 * PREDICT_PART_ROWS + 7_001);
      assert.equal(body.predictions.length, body.n);
      const contributions = Object.values(body.contributions ?? body.class_contributions?.[Object.keys(body.class_contributions)[0]] ?? {});
      assert.ok(contributions.length > 0 && contributions.every((c) => c.length === body.n), 'every feature has one contribution per row');
    });
  }

  it('names the field of bad input in a 422 from a split predict', async () => {
    const trained = await env.call('POST', '/v1/models/train', { json: { csv_content: csv(900, 3), target_column: 'label', model_name: 'parts threshold', drop_columns: ['amount', 'kind'] } });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    const res = await env.call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { dataset_id: datasetId, explain: true, threshold: 1.5 } });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.match(JSON.stringify(res.body), /threshold/);
  });
});
