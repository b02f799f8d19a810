import assert from 'node:assert/strict';
import { ModelProfileSchema, PredictionsSchema, RefitResultSchema, TrainResultSchema } from '../../../src/contract';
import { frameCsv, objectiveFrame, type ObjectiveTask } from '../engine/objectiveTasks';
import { useService } from './harness';
import { uploadCsv } from './fixtures';

function taskCsv(task: ObjectiveTask, rows: number, seed: number, edit?: (line: string[], row: number) => string[]): string {
  return frameCsv(objectiveFrame(task, rows, seed), edit);
}

describe('service: objectives, weights and exposure', function () {
  this.timeout(180_000);
  const env = useService();
  let datasetId: string;
  let trained: { model_id: string; version_id: string };

  before(async () => {
    datasetId = await uploadCsv(env.call, taskCsv('frequency', 4000, 21), 'frequency.csv');
    const res = await env.call('POST', '/v1/models/train', {
      json: { target_column: 'y', model_name: 'claims', dataset_id: datasetId, model_type: 'regressor', objective: 'poisson', exposure_column: 'exposure', weight_column: 'weight' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    trained = res.body;
  });

  it('trains a Poisson model with exposure and weights: deviance metrics beside R², yardsticks of the same objective, neither column a feature', async () => {
    const res = await env.call('GET', `/v1/models/versions/${trained.model_id}`);
    const version = res.body[0];
    assert.equal(version.parameters.objective, 'poisson');
    assert.equal(version.parameters.link, 'log');
    assert.equal(version.parameters.exposure_column, 'exposure');
    assert.equal(version.parameters.weight_column, 'weight');
    assert.ok(!version.parameters.features.includes('exposure') && !version.parameters.features.includes('weight'), version.parameters.features.join());
    const again = await env.call('POST', '/v1/models/train', {
      json: { target_column: 'y', model_id: trained.model_id, dataset_id: datasetId, model_type: 'regressor', objective: 'poisson', exposure_column: 'exposure' },
    });
    const result = TrainResultSchema.parse(again.body);
    const test = result.test_metrics as Record<string, number>;
    assert.ok(typeof test.poisson_deviance === 'number' && typeof test.r2 === 'number', JSON.stringify(test));
    const constant = result.baseline?.constant as Record<string, number>;
    assert.ok(test.poisson_deviance < constant.poisson_deviance, `${test.poisson_deviance} vs constant ${constant.poisson_deviance}`);
  });

  it('predicts exposure × exp(base + Σ contributions) from the exposure column of the rows, and profiles factors', async () => {
    const csv = taskCsv('frequency', 30, 22);
    const res = await env.call('POST', `/v1/models/versions/${trained.version_id}/predict`, { json: { csv_content: csv, explain: true } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const out = PredictionsSchema.parse(res.body);
    const exposure = csv.split('\n').slice(1).map((l) => Number(l.split(',')[5]));
    for (let r = 0; r < out.n; r++) {
      const score = Object.values(out.contributions ?? {}).reduce((s, c) => s + c[r], out.base_value);
      const expected = exposure[r] * Math.exp(score);
      assert.ok(Math.abs((out.predictions[r] as number) - expected) <= 1e-9 * expected, `row ${r}: ${out.predictions[r]} vs ${expected}`);
    }
    const profile = ModelProfileSchema.parse((await env.call('GET', `/v1/models/profile/${trained.version_id}`)).body);
    assert.ok(profile.model_type === 'regression' && profile.link === 'log');
    const age = profile.partitions[0].numeric.age;
    assert.ok(age.every((b) => Math.abs((b.factor as number) - Math.exp(b.score)) < 1e-12));
  });

  it('keeps the objective through a refit', async () => {
    const res = await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, { json: { dataset_id: datasetId, target_column: 'y', smoothing: 2 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const refitted = RefitResultSchema.parse(res.body);
    assert.ok('poisson_deviance' in refitted.test_metrics, JSON.stringify(refitted.test_metrics));
  });

  it('answers a 422 naming the field and the value or count for what the objective cannot take', async () => {
    const train = (json: Record<string, unknown>, csv?: string) =>
      env.call('POST', '/v1/models/train', { json: { target_column: 'y', model_name: 'bad', model_type: 'regressor', ...(csv ? { csv_content: csv } : { dataset_id: datasetId }), ...json } });
    const cases: [Record<string, unknown>, RegExp, string?][] = [
      [{ objective: 'poisson', tweedie_power: 1.3 }, /tweedie_power belongs to objective "tweedie", not "poisson"/],
      [{ objective: 'tweedie', tweedie_power: 2.5 }, /tweedie_power must be above 1 and below 2 \(got 2\.5\)/],
      [{ objective: 'log_loss' }, /objective "log_loss" does not fit a regressor/],
      [{ exposure_column: 'exposure' }, /exposure_column needs a log-link objective/],
      [{ objective: 'poisson', weight_column: 'nope' }, /weight_column nope is not a column/],
      [{ objective: 'gamma' }, /row\(s\) of y are not positive, which objective "gamma" needs/],
      [{ objective: 'poisson', exposure_column: 'exposure' }, /exposure_column exposure is zero or negative on [1-7] row\(s\)/, taskCsv('frequency', 300, 23, (l, i) => (i < 7 ? l.map((v, c) => (c === 5 ? '0' : v)) : l))],
      [{ objective: 'poisson' }, /[1-3] row\(s\) of y are not non-negative, which objective "poisson" needs/, taskCsv('frequency', 300, 24, (l, i) => (i < 3 ? l.map((v, c) => (c === 7 ? '-1' : v)) : l))],
      [{ objective: 'squared_error', model_type: 'classifier' }, /objective "squared_error" does not fit a classifier/],
      [{ objective: 'gamma', method: 'xplainable' }, /xplainable method fits squared error or log loss only/],
    ];
    for (const [json, message, csv] of cases) {
      const res = await train(json, csv);
      assert.equal(res.status, 422, `${JSON.stringify(json)}: ${JSON.stringify(res.body)}`);
      assert.match(String(res.body.detail), message);
    }
    const unknown = await train({ objective: 'cauchy' });
    assert.equal(unknown.status, 422);
    assert.match(JSON.stringify(unknown.body), /objective/);
  });
});
