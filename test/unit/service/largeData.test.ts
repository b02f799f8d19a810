import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatasetSchema } from '../../../src/contract';
import { useService } from './harness';
import { uploadCsv } from './fixtures';

/** Rows of two numeric features, a three-level group and a two-class label, generated deterministically. */
function generatedCsv(rows: number): string {
  const lines = new Array<string>(rows + 1);
  lines[0] = 'x1,x2,group,label';
  for (let i = 0; i < rows; i++) {
    const x1 = (i * 7919) % 1000;
    const x2 = (i * 104729) % 97;
    const group = ['a', 'b', 'c'][i % 3];
    lines[i + 1] = `${x1},${x2},${group},${x1 + x2 * 5 > 700 ? 1 : 0}`;
  }
  return `${lines.join('\n')}\n`;
}

describe('service: CSV dialects, stored frames and large datasets', function () {
  this.timeout(300_000);
  const env = useService();

  const upload = (bytes: Buffer, name: string) => env.call('POST', `/v1/datasets?name=${name}`, { body: bytes, contentType: 'text/csv' });

  it('splits semicolon-, tab- and pipe-delimited uploads into their columns', async () => {
    for (const delimiter of [';', '\t', '|']) {
      const res = await upload(Buffer.from(`a${delimiter}b${delimiter}y\n1${delimiter}2${delimiter}3\n`), 'delimited');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(DatasetSchema.parse(res.body).columns, ['a', 'b', 'y']);
    }
  });

  it('decodes a Windows-1252 upload and names the byte of a later invalid UTF-8 byte in a 422', async () => {
    const legacy = await upload(Buffer.from('prix;caf\xe9\n1;2\n', 'latin1'), 'legacy');
    assert.equal(legacy.status, 200, JSON.stringify(legacy.body));
    assert.deepEqual(legacy.body.columns, ['prix', 'café']);
    // Past the first megabyte read, which decided the file is UTF-8.
    const start = Buffer.from(`name\n${'x\n'.repeat(600_000)}`);
    const broken = await upload(Buffer.concat([start, Buffer.from([0x61, 0xfe, 0x0a])]), 'broken');
    assert.equal(broken.status, 422, JSON.stringify(broken.body));
    assert.match(broken.body.detail, new RegExp(`byte ${start.length + 1}\\b`));
    const names = (await env.call('GET', '/v1/datasets')).body.map((d: { name: string }) => d.name);
    assert.ok(!names.includes('broken'), 'a rejected upload is not listed');
  });

  it('trains a dataset stored before frames and health scans existed, converting it on first use', async () => {
    const datasetId = await uploadCsv(env.call, generatedCsv(500));
    const stored = (ext: string) => join(env.service.dataDir, 'datasets', `${datasetId}.${ext}`);
    assert.ok(existsSync(stored('frame')), 'the upload stores its frame before it answers');
    // The health scan follows the answer; any use of the dataset waits for it.
    assert.equal((await env.call('POST', '/v1/autotrain/summarize', { json: { req: { dataset_id: datasetId } } })).status, 200);
    assert.ok(existsSync(stored('health.json')), 'the scans started at upload store its health');
    const scanned = JSON.parse(readFileSync(stored('health.json'), 'utf8')) as { feature: string }[];
    assert.deepEqual(scanned.map((h) => h.feature), ['x1', 'x2', 'group', 'label']);
    for (const ext of ['frame', 'health.json']) rmSync(stored(ext));
    const trained = await env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'old', dataset_id: datasetId } });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    for (const ext of ['frame', 'health.json']) assert.ok(existsSync(stored(ext)), `the ${ext} is written when the old dataset is first used`);
    const info = await env.call('GET', `/v1/models/feature-info/${trained.body.version_id}`);
    assert.equal(info.status, 200, JSON.stringify(info.body));
    const cached = new Map(JSON.parse(readFileSync(stored('health.json'), 'utf8')).map((h: { feature: string }) => [h.feature, h]));
    for (const entry of info.body.features) {
      const { importance: _importance, ...health } = entry as { feature: string; importance: number };
      assert.deepEqual(health, cached.get(health.feature), `${health.feature}: the version's health is the dataset's cached scan`);
    }
    assert.ok([200, 204].includes((await env.call('DELETE', `/v1/datasets/${datasetId}`)).status));
    for (const ext of ['frame', 'health.json', 'summary.json']) assert.ok(!existsSync(stored(ext)), `deleting the dataset removes its ${ext}`);
  });

  it('trains a million rows with its own split, and with partitions', async () => {
    const rows = 1_000_000;
    const datasetId = await uploadCsv(env.call, generatedCsv(rows));
    const whole = await env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'million', dataset_id: datasetId } });
    assert.equal(whole.status, 200, JSON.stringify(whole.body));
    assert.equal(whole.body.n_train + whole.body.n_test, rows);
    const split = await env.call('POST', '/v1/models/train', {
      json: { target_column: 'label', model_name: 'million-by-group', dataset_id: datasetId, partition_on: 'group' },
    });
    assert.equal(split.status, 200, JSON.stringify(split.body));
    const parts = (await env.call('GET', `/v1/models/partitions/${split.body.version_id}`)).body.partitions as { partition: string; n_train: number; n_test: number }[];
    assert.deepEqual(parts.map((p) => p.partition).sort(), ['__dataset__', 'a', 'b', 'c']);
    assert.equal(parts.filter((p) => p.partition !== '__dataset__').reduce((sum, p) => sum + p.n_train + p.n_test, 0), rows);
  });
});
