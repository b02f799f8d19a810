import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { useService } from './harness';
import { smallCsv } from './fixtures';

/** What a refused request must not leave behind, beyond errors.test.ts's checks of each 422. */
describe('service: refused input leaves nothing behind', function () {
  this.timeout(60_000);
  const env = useService();

  const left = async () => ({
    models: (await env.call('GET', `/v1/models/teams/${env.service.teamId}`)).body.length as number,
    datasets: (await env.call('GET', '/v1/datasets')).body.length as number,
    files: existsSync(join(env.service.dataDir, 'datasets')) ? readdirSync(join(env.service.dataDir, 'datasets')).length : 0,
  });

  const form = (csv: string, name: string) => {
    const body = new FormData();
    body.append('file', new Blob([csv], { type: 'text/csv' }), name);
    return body;
  };

  it('keeps no dataset and no file of a refused multipart upload, to /v1/datasets or to summarize-dataset', async () => {
    const before = await left();
    const uploads = [
      { csv: 'x,color,size,label\n', name: 'header-only.csv', says: /header-only\.csv has a header but no data rows/ },
      { csv: smallCsv(40).replace('x,color,size,label', 'x,color,x,label'), name: 'repeated.csv', says: /"x"/ },
    ];
    for (const path of ['/v1/datasets', '/v1/autotrain/summarize-dataset']) {
      for (const { csv, name, says } of uploads) {
        const res = await env.call('POST', path, { body: form(csv, name) });
        assert.equal(res.status, 422, `${path} ${name}: ${JSON.stringify(res.body)}`);
        assert.match(res.body.detail, says);
        assert.equal(res.body.error.fields[0].path, 'file');
      }
    }
    assert.deepEqual(await left(), before);
  });

  it('keeps no model of a failed train, under either method, or of an unreadable model upload', async () => {
    const before = await left();
    const oneLabel = smallCsv(60).replace(/,(yes|no)$/gm, ',yes');
    const failures = [
      { json: { target_column: 'label', csv_content: oneLabel }, field: 'label' },
      { json: { target_column: 'label', csv_content: oneLabel, method: 'xplainable' }, field: 'label' },
      { json: { target_column: 'nope', csv_content: smallCsv(40) }, field: 'nope' },
      { json: { target_column: 'label', csv_content: smallCsv(40), test_size: 0.01 }, field: 'test_size' },
    ];
    for (const { json, field } of failures) {
      const res = await env.call('POST', '/v1/models/train', { json: { model_name: 'doomed', ...json } });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.error.fields[0].path, field);
    }
    const broken = await env.call('POST', '/v1/models/create', {
      json: { name: 'broken', type: 'binary_classification', target_name: 'label', partitions: [{ partition: '__dataset__', base_value: 0.5, profile: '{not json' }] },
    });
    assert.equal(broken.status, 422, JSON.stringify(broken.body));
    assert.deepEqual(await left(), before);
  });
});
