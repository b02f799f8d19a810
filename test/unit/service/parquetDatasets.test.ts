import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATASETS, useService } from './harness';
import { csvAsParquet, writeParquet } from './datasets/duckdbParquet';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies compared as trees
type Json = any;

/** Equal JSON trees, numbers within 1e-9 (relative to their size when large); ids and timestamps are not compared. */
function assertSameJson(actual: Json, expected: Json, path = ''): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${path}: ${actual} != ${expected}`);
    return;
  }
  if (expected === null || typeof expected !== 'object' || actual === null || typeof actual !== 'object') {
    assert.deepEqual(actual, expected, path);
    return;
  }
  assert.deepEqual(Object.keys(actual), Object.keys(expected), path);
  for (const key of Object.keys(expected)) {
    if (/(_id|^created|^updated)$/.test(key)) continue;
    assertSameJson(actual[key], expected[key], `${path}.${key}`);
  }
}

/** The file with the compression codec of `column`'s chunks set to LZO, which no reader here supports. */
function withLzoColumn(bytes: Buffer, column: string): Buffer {
  // Thrift compact: path_in_schema = list of one string, then field 4 (codec, i32) = zigzag varint 0 (UNCOMPRESSED).
  const chunkHead = Buffer.concat([Buffer.from([0x18, column.length]), Buffer.from(column), Buffer.from([0x15, 0x00])]);
  const at = bytes.lastIndexOf(chunkHead);
  assert.ok(at > 0, 'the column chunk metadata is where the compact protocol puts it');
  const patched = Buffer.from(bytes);
  patched[at + chunkHead.length - 1] = 0x06; // zigzag(3) = LZO
  return patched;
}

describe('service: Parquet datasets', function () {
  this.timeout(600_000);
  const env = useService();
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'xmodels-parquet-service-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const uploadForm = (bytes: Buffer, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    return env.call('POST', '/v1/datasets', { body: form });
  };
  const uploadBody = (bytes: Buffer, name: string, contentType = 'application/vnd.apache.parquet') =>
    env.call('POST', `/v1/datasets?name=${encodeURIComponent(name)}`, { body: bytes, contentType });

  async function trained(datasetId: string, target: string, modelType: string) {
    const res = await env.call('POST', '/v1/models/train', { json: { target_column: target, model_type: modelType, model_name: 'same', dataset_id: datasetId } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const payload = await env.call('GET', `/v1/models/versions/${res.body.version_id}/payload`);
    assert.equal(payload.status, 200, JSON.stringify(payload.body));
    return { metrics: { train: res.body.train_metrics, test: res.body.test_metrics, baseline: res.body.baseline }, payload: payload.body };
  }

  it('trains from every sample dataset as Parquet, typed by DuckDB or all text, the model and metrics it trains from the CSV', async () => {
    const publics: Json[] = (await env.call('GET', '/v1/datasets/public')).body;
    for (const name of ['penguins', 'cars', 'movies', 'seattle-weather', 'weather', 'flights-20k']) {
      const target = publics.find((d) => d.name === name).suggested_target as string;
      const modelType = name === 'weather' ? 'classifier' : 'regressor';
      const csvPath = join(DATASETS, `${name}.csv`);
      const csv = await uploadForm(readFileSync(csvPath), `${name}.csv`);
      assert.equal(csv.status, 200, JSON.stringify(csv.body));
      const expected = await trained(csv.body.dataset_id, target, modelType);
      const typed = await uploadForm(readFileSync(await csvAsParquet(csvPath, join(dir, `${name}.parquet`))), `${name}.parquet`);
      const text = await uploadBody(readFileSync(await csvAsParquet(csvPath, join(dir, `${name}.text.parquet`), true)), `${name} as text`);
      for (const [how, upload] of [['typed', typed], ['all VARCHAR', text]] as const) {
        assert.equal(upload.status, 200, JSON.stringify(upload.body));
        assert.deepEqual([upload.body.rows, upload.body.columns], [csv.body.rows, csv.body.columns], `${name} ${how}`);
        const actual = await trained(upload.body.dataset_id, target, modelType);
        assertSameJson(actual, expected, `${name} ${how}`);
      }
    }
  });

  it('reads the bytes, not the name: a Parquet file named .csv and a CSV named .parquet; octet-stream bodies too', async () => {
    const parquet = readFileSync(await writeParquet(`SELECT i AS x, (i % 3 = 0) AS flag FROM range(20) r(i)`, join(dir, 'small.parquet')));
    for (const res of [await uploadForm(parquet, 'small.csv'), await uploadBody(parquet, 'small', 'application/octet-stream')]) {
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual([res.body.rows, res.body.columns], [20, ['x', 'flag']]);
    }
    const csv = await uploadForm(Buffer.from('x,flag\n1,true\n2,false\n'), 'small.parquet');
    assert.equal(csv.status, 200, JSON.stringify(csv.body));
    assert.equal(csv.body.rows, 2);
    const health = await env.call('GET', '/v1/health');
    assert.ok(health.body.features.includes('parquet'));
  });

  it('refuses a cut-short or corrupt file, an unreadable compression and a nested column, naming the problem and the column, and keeps nothing', async () => {
    // Files of no listed dataset: those of the datasets themselves may still be written (scans follow an upload).
    const left = async () => {
      const ids: string[] = (await env.call('GET', '/v1/datasets')).body.map((d: { dataset_id: string }) => d.dataset_id);
      const folder = join(env.service.dataDir, 'datasets');
      const files = existsSync(folder) ? readdirSync(folder) : [];
      return { datasets: ids.length, orphans: files.filter((f) => !f.startsWith('.') && !ids.some((id) => f.startsWith(id))).sort() };
    };
    const before = await left();
    const whole = readFileSync(await writeParquet(`SELECT i AS x, 'c' || (i % 3) AS color FROM range(50) r(i)`, join(dir, 'whole.parquet'), 'COMPRESSION uncompressed'));
    const corrupt = Buffer.from(whole);
    corrupt.writeUInt32LE(whole.length * 2, whole.length - 8);
    const nested = readFileSync(await writeParquet(`SELECT 1 AS x, [1, 2] AS tags`, join(dir, 'nested.parquet')));
    const refusals = [
      { bytes: whole.subarray(0, whole.length - 40), says: /cut\.parquet is not a readable Parquet file: it is cut short/ },
      { bytes: corrupt, says: /corrupt\.parquet is not a readable Parquet file: it is corrupt/ },
      { bytes: withLzoColumn(whole, 'color'), says: /Column color is compressed with LZO/ },
      { bytes: nested, says: /Column tags is a nested column/ },
    ];
    for (const [i, { bytes, says }] of refusals.entries()) {
      const name = ['cut', 'corrupt', 'lzo', 'nested'][i] + '.parquet';
      writeFileSync(join(dir, name), bytes);
      const res = await uploadForm(bytes, name);
      assert.equal(res.status, 422, `${name}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.detail, says);
      assert.equal(res.body.error.fields[0].path, 'file');
    }
    assert.deepEqual(await left(), before);
  });
});
