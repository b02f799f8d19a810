import assert from 'node:assert/strict';
import { EvaluationSchema, ModelVersionSchema, PartitionListSchema, TrainResultSchema } from '../../../src/contract';
import { mulberry32 } from '../../../src/engine';
import { useService } from './harness';
import { uploadCsv } from './fixtures';

const ROWS = 400;

/** Rows whose target is the row's number, so a partition's evaluation tells which rows it tested on. */
function rows(): { csv: string; day: string[]; customer: string[] } {
  const random = mulberry32(9);
  const day: string[] = [];
  const customer: string[] = [];
  const lines = ['day,customer,x,y'];
  for (let r = 0; r < ROWS; r++) {
    day.push(r % 41 === 3 ? '' : new Date(Date.UTC(2024, 0, 1 + Math.floor(random() * 60))).toISOString().slice(0, 10));
    customer.push(`c${Math.floor(random() * 40)}`);
    lines.push(`${day[r]},${customer[r]},${(random() * 10).toFixed(3)},${r}`);
  }
  return { csv: lines.join('\n'), day, customer };
}

describe('service: time and group splits', function () {
  this.timeout(120_000);
  const env = useService();
  const data = rows();
  let datasetId: string;

  before(async () => {
    datasetId = await uploadCsv(env.call, data.csv, 'visits.csv');
  });

  const train = (extra: Record<string, unknown>) =>
    env.call('POST', '/v1/models/train', { json: { target_column: 'y', model_name: 'visits', dataset_id: datasetId, model_type: 'regressor', outer_bags: 2, ...extra } });

  /** The rows (their numbers) a version tested on, its stored parameters and its evaluation's split. */
  async function tested(result: { model_id: string; version_id: string }) {
    const partitions = PartitionListSchema.parse((await env.call('GET', `/v1/models/partitions/${result.version_id}`)).body).partitions;
    const evaluation = EvaluationSchema.parse((await env.call('GET', `/v1/models/evaluation/${partitions[0].partition_id}`)).body);
    assert.ok('charts' in evaluation.test);
    const versions = ModelVersionSchema.array().parse((await env.call('GET', `/v1/models/versions/${result.model_id}`)).body);
    const version = versions.find((v) => v.version_id === result.version_id);
    return { rows: new Set(evaluation.test.charts.true), parameters: version?.parameters ?? {}, split: evaluation.split };
  }

  it('tests a time split on exactly the latest rows by the column, records it on the version and returns it with the evaluation', async () => {
    const res = await train({ split: { time_column: 'day' }, test_size: 0.25 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const result = TrainResultSchema.parse(res.body);
    assert.deepEqual(result.feature_importances.map((f) => f.feature).sort(), ['customer', 'x'], 'the time column is no feature');
    const { rows: test, parameters, split } = await tested(result);
    assert.equal(test.size, result.n_test);
    const days = (side: boolean) => data.day.filter((d, r) => test.has(r) === side && d !== '').sort();
    assert.ok(days(true)[0] > days(false)[days(false).length - 1], `tested from ${days(true)[0]}, trained up to ${days(false).at(-1)}`);
    assert.ok(data.day.every((d, r) => d !== '' || !test.has(r)), 'rows without a day train');
    assert.deepEqual([parameters.split, parameters.n_test, parameters.test_from], [{ time_column: 'day' }, result.n_test, `${days(true)[0]}T00:00:00.000Z`]);
    assert.deepEqual(split, { split: { time_column: 'day' }, test_size: 0.25, n_test: result.n_test, test_from: `${days(true)[0]}T00:00:00.000Z` });

    const refit = await env.call('POST', `/v1/models/versions/${result.version_id}/refit`, { json: { dataset_id: datasetId, target_column: 'y', smoothing: 2 } });
    assert.equal(refit.status, 200, JSON.stringify(refit.body));
    const again = await tested({ model_id: result.model_id, version_id: refit.body.version_id });
    assert.deepEqual([...again.rows].sort(), [...test].sort(), 'a refit tests on the version’s own split');
    assert.deepEqual(again.parameters.split, { time_column: 'day' });
  });

  it('never puts a customer on both sides of a group split, and records a random split as random', async () => {
    for (const seed of [1, 2, 3]) {
      const res = await train({ split: { group_column: 'customer' }, seed });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const result = TrainResultSchema.parse(res.body);
      assert.ok(!result.feature_importances.some((f) => f.feature === 'customer'), 'the group column is no feature');
      const { rows: test, parameters } = await tested(result);
      const customers = (side: boolean) => new Set(data.customer.filter((_, r) => test.has(r) === side));
      assert.deepEqual([...customers(true)].filter((c) => customers(false).has(c)), []);
      assert.ok(customers(true).size >= 2 && customers(true).size <= 16, `${customers(true).size} of 40 customers tested`);
      assert.deepEqual([parameters.split, parameters.n_test], [{ group_column: 'customer' }, test.size]);
    }
    const res = await train({});
    const { parameters, split } = await tested(TrainResultSchema.parse(res.body));
    assert.deepEqual([parameters.split, split?.split, split?.test_size], ['random', 'random', 0.2]);
  });

  it('fits the same model with split left out and given as "random"', async () => {
    const payloads = [];
    for (const extra of [{}, { split: 'random' }]) {
      const res = await train({ ...extra, outer_bags: undefined });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      payloads.push(JSON.stringify((await env.call('GET', `/v1/models/versions/${res.body.version_id}/payload`)).body.partitions));
    }
    assert.equal(payloads[0], payloads[1]);
  });

  it('answers 422 naming the field and the value for a split it cannot make', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ split: { time_column: 'when' } }, 'split.time_column', /split\.time_column names no column when; the columns are: day, customer, x, y/],
      [{ split: { time_column: 'customer' } }, 'split.time_column', /customer is a categorical column; a time split needs a column of numbers or dates/],
      [{ split: { group_column: 'y' } }, 'split.group_column', /cannot be the target column y/],
      [{ split: { group_column: 'day' }, csv_content: 'day,x,y\n1,1,1\n1,2,2\n1,3,3\n1,4,4\n1,5,6', dataset_id: undefined }, 'split.group_column', /day has 1 group \(distinct values\)/],
      [{ split: { by: 'day' } }, 'split', /./],
      [{ split: { group_column: 'customer' }, test_dataset_id: datasetId }, 'split', /cannot be given with test_dataset_id/],
    ];
    for (const [extra, field, message] of cases) {
      const res = await train(extra);
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.ok(res.body.error.fields.some((f: { path: string }) => f.path.startsWith(field)), JSON.stringify(res.body.error));
      assert.match(res.body.error.message, message);
    }
  });
});
