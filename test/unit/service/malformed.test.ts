import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { useService } from './harness';
import { smallCsv } from './fixtures';

/** The rows of smallCsv with every label replaced by one value. */
const oneLabelCsv = () => smallCsv(60).replace(/,(yes|no)$/gm, ',yes');

describe('service: malformed input is a 422 that names the problem and leaves nothing behind', function () {
  this.timeout(60_000);
  const env = useService();

  const listed = async () => ({
    models: (await env.call('GET', `/v1/models/teams/${env.service.teamId}`)).body.length as number,
    datasets: (await env.call('GET', '/v1/datasets')).body.length as number,
    files: existsSync(join(env.service.dataDir, 'datasets')) ? readdirSync(join(env.service.dataDir, 'datasets')).length : 0,
  });

  const upload = (csv: string, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), name);
    return env.call('POST', '/v1/datasets', { body: form });
  };

  it('refuses a target with a single distinct value, for a classifier and for a regressor', async () => {
    const before = await listed();
    const numeric = smallCsv(60).replace(/^\d+,/gm, '7,');
    const cases = [
      { json: { target_column: 'label', csv_content: oneLabelCsv() }, named: /column label has a single distinct value \(yes\)/ },
      { json: { target_column: 'label', csv_content: oneLabelCsv(), model_type: 'classifier', method: 'xplainable' }, named: /column label has a single distinct value/ },
      { json: { target_column: 'x', csv_content: numeric, model_type: 'regressor' }, named: /column x has a single one \(7\)/ },
    ];
    for (const { json, named } of cases) {
      const res = await env.call('POST', '/v1/models/train', { json: { model_name: 'constant', ...json } });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.match(res.body.detail, named);
      assert.equal(res.body.error.fields[0].path, json.target_column);
    }
    assert.deepEqual(await listed(), before);
  });

  it('refuses a CSV with a header and no rows, as an upload and as csv_content', async () => {
    const before = await listed();
    const up = await upload('x,color,size,label\n', 'header-only.csv');
    assert.equal(up.status, 422, JSON.stringify(up.body));
    assert.equal(up.body.detail, 'header-only.csv has a header but no rows.');
    const form = new FormData();
    form.append('file', new Blob(['x,color,size,label\n'], { type: 'text/csv' }), 'header-only.csv');
    const summarized = await env.call('POST', '/v1/autotrain/summarize-dataset', { body: form });
    assert.equal(summarized.status, 422, JSON.stringify(summarized.body));
    assert.equal(summarized.body.detail, 'header-only.csv has a header but no rows.');
    const res = await env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'empty', csv_content: 'x,color,size,label\n' } });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.detail, 'csv_content has a header but no rows.');
    assert.equal(res.body.error.fields[0].path, 'csv_content');
    assert.deepEqual(await listed(), before);
  });

  it('refuses a CSV with duplicate column names and names the column', async () => {
    const before = await listed();
    const csv = smallCsv(40).replace('x,color,size,label', 'x,color,x,label');
    const up = await upload(csv, 'duplicates.csv');
    assert.equal(up.status, 422, JSON.stringify(up.body));
    assert.equal(up.body.detail, 'duplicates.csv has duplicate column names: x appears more than once in the header.');
    assert.equal(up.body.error.fields[0].path, 'file');
    const res = await env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'dup', csv_content: csv } });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.error.fields[0].path, 'csv_content');
    assert.match(res.body.detail, /duplicate column names: x appears more than once/);
    assert.deepEqual(await listed(), before);
  });

  it('leaves no model behind when training or a model upload fails', async () => {
    const before = await listed();
    const failures = [
      await env.call('POST', '/v1/models/train', { json: { target_column: 'nope', model_name: 'missing-target', csv_content: smallCsv(40) } }),
      await env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'tiny-test', csv_content: smallCsv(40), test_size: 0.01 } }),
      await env.call('POST', '/v1/models/create', {
        json: { name: 'broken', type: 'binary_classification', target_name: 'label', partitions: [{ partition: '__dataset__', base_value: 0.5, profile: '{not json' }] },
      }),
    ];
    for (const res of failures) assert.ok(res.status >= 400 && res.status < 500, JSON.stringify(res.body));
    assert.deepEqual(await listed(), before);
  });
});
