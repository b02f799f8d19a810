import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XModelsClient } from '../../../../src/client';
import { client, removeDir, startService, type Call, type ServiceProcess } from '../harness';
import { testCluster } from '../postgresCluster';
import { writeCsv, writeParquet } from './duckdbParquet';

const BUDGET = 5_000;

/** Customers whose churn follows tenure and plan, with noise from a hash of the row number. */
const customers = (rows: number) => `
  SELECT i AS customer_id, (i * 37) % 72 AS tenure, ['basic', 'plus', 'pro'][1 + i % 3] AS plan,
         CASE WHEN ((i * 37) % 72) + 8 * (i % 3) - 12 * (hash(i) % 3) < 30 THEN 'yes' ELSE 'no' END AS churned
  FROM range(${rows}) t(i)`;

/** Every file under the service's data dir with its size, to look for a copy of a registered file. */
function filesUnder(dir: string): { path: string; size: number }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, size: statSync(path).size };
    });
}

describe('service: a local file registered where it lies', function () {
  this.timeout(300_000);
  let dir: string;
  let service: ServiceProcess;
  let call: Call;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'xmodels-files-in-place-'));
    // The embedded store whatever the run's backend (an empty database URL): only the local service reads files.
    service = await startService({ database: '', args: ['--max-rows-in-memory', String(BUDGET), '--upload-limit-mb', '1'] });
    call = client(service.url, service.apiKey);
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
    rmSync(dir, { recursive: true, force: true });
  });

  const register = (file: string, name?: string) => call('POST', '/v1/datasets', { json: { ...(name ? { name } : {}), source: { file } } });
  const train = (datasetId: string) =>
    call('POST', '/v1/models/train', { json: { dataset_id: datasetId, target_column: 'churned', model_name: 'churn', drop_columns: ['customer_id'] } });

  it('reads a CSV and a Parquet file without copying them, and trains on them', async () => {
    const csv = await writeCsv(customers(2_000), join(dir, 'customers.csv'));
    const parquet = await writeParquet(customers(3_000), join(dir, 'customers.parquet'));
    for (const [path, rows] of [[csv, 2_000], [parquet, 3_000]] as const) {
      const registered = await register(path);
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      assert.equal(registered.body.rows, rows);
      assert.equal(registered.body.name, path.endsWith('.csv') ? 'customers.csv' : 'customers.parquet', 'named after the file');
      assert.equal(registered.body.file.path, path);
      assert.equal(registered.body.size_bytes, statSync(path).size);
      assert.deepEqual(registered.body.columns, ['customer_id', 'tenure', 'plan', 'churned']);
      const trained = await train(registered.body.dataset_id);
      assert.equal(trained.status, 200, JSON.stringify(trained.body));
      assert.equal(trained.body.execution, 'in_memory');
      assert.ok(trained.body.test_metrics.roc_auc > 0.6, `AUC ${trained.body.test_metrics.roc_auc}`);
    }
    const original = [readFileSync(csv), readFileSync(parquet)];
    const copies = filesUnder(service.dataDir).filter((f) => original.some((bytes) => f.size === bytes.length && readFileSync(f.path).equals(bytes)));
    assert.deepEqual(copies, [], 'the data dir holds no copy of either file');
    const listed = await call('GET', '/v1/datasets');
    assert.deepEqual(listed.body.map((d: { file: { path: string } | null }) => d.file?.path).sort(), [csv, parquet].sort());
  });

  it('reads a file again when it changed: its new rows change rows, the next train reads them', async () => {
    const path = await writeCsv(customers(1_000), join(dir, 'changing.csv'));
    const registered = await register(path, 'changing');
    assert.equal(registered.body.rows, 1_000);
    await writeCsv(customers(1_500), path);
    const trained = await train(registered.body.dataset_id);
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    assert.equal(trained.body.n_train + trained.body.n_test, 1_500, 'trained on the rows the file has now');
    const listed = (await call('GET', '/v1/datasets')).body.find((d: { dataset_id: string }) => d.dataset_id === registered.body.dataset_id);
    assert.equal(listed.rows, 1_500);
    assert.equal(listed.size_bytes, statSync(path).size);

    // The same size, another modification time: read again too (here to the same rows).
    const later = new Date(statSync(path).mtimeMs + 60_000);
    utimesSync(path, later, later);
    const again = (await call('GET', '/v1/datasets')).body.find((d: { dataset_id: string }) => d.dataset_id === registered.body.dataset_id);
    assert.notEqual(again.file.modified, later.toISOString(), 'listing reads nothing');
    assert.equal((await train(registered.body.dataset_id)).status, 200);
    const reread = (await call('GET', '/v1/datasets')).body.find((d: { dataset_id: string }) => d.dataset_id === registered.body.dataset_id);
    assert.equal(reread.file.modified, later.toISOString(), 'the use read the file again and recorded its time');
    const downloaded = await call('GET', `/v1/datasets/${registered.body.dataset_id}/file`);
    assert.equal(downloaded.status, 200);
    assert.equal(downloaded.body, readFileSync(path, 'utf8'), "the dataset's file is the file as it is now");
  });

  it('trains a Parquet file over the in-memory budget where it lies', async () => {
    const path = await writeParquet(customers(12_000), join(dir, 'large.parquet'), 'ROW_GROUP_SIZE 4096');
    const registered = await register(path);
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    assert.equal(registered.body.rows, 12_000);
    const trained = await train(registered.body.dataset_id);
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    assert.equal(trained.body.execution, 'pushdown', 'more rows than the budget: read by DuckDB where the file lies');
    assert.ok(Math.abs(trained.body.n_test - 0.2 * 12_000) < 0.03 * 12_000, `every test row is scored (${trained.body.n_test})`);
    const own = filesUnder(service.dataDir).filter((f) => f.path.includes(registered.body.dataset_id));
    assert.deepEqual(own, [], 'neither a copy nor a frame of it in the data dir');
  });

  it('lets the client of the local service train on a file over the upload limit, which an upload is refused', async () => {
    const path = await writeCsv(customers(100_000), join(dir, 'over the limit.csv'));
    assert.ok(statSync(path).size > 1024 * 1024, `${statSync(path).size} bytes, over --upload-limit-mb 1`);
    const request = { file_path: path, target_column: 'churned', model_name: 'churn', drop_columns: ['customer_id'] };
    const uploading = new XModelsClient({ baseUrl: service.url, apiKey: service.apiKey });
    const local = new XModelsClient({ baseUrl: service.url, apiKey: service.apiKey, filesInPlace: true });
    try {
      await assert.rejects(uploading.models.trainModel(request), (error: { status?: number }) => error.status === 413);
      const trained = await local.models.trainModel(request);
      assert.equal(trained.n_train + trained.n_test, 100_000);
      const dataset = (await local.datasets.list()).find((d) => d.dataset_id === trained.dataset_id);
      assert.equal(dataset?.file?.path, path);
    } finally {
      await Promise.all([uploading.close(), local.close()]);
    }
  });

  it('answers a deleted file with a 409 naming its path', async () => {
    const path = await writeCsv(customers(500), join(dir, 'deleted.csv'));
    const registered = await register(path);
    rmSync(path);
    const trained = await train(registered.body.dataset_id);
    assert.equal(trained.status, 409, JSON.stringify(trained.body));
    assert.match(trained.body.detail, /deleted\.csv/);
    assert.match(trained.body.detail, /gone/);
  });

  it('refuses a relative path, another extension, a directory and a missing file with a 422 naming source.file and the value', async () => {
    const text = await writeCsv(customers(10), join(dir, 'notes.txt'));
    const cases: [string, RegExp][] = [
      ['data/customers.csv', /absolute path, got "data\/customers\.csv"/],
      [text, /\.parquet or \.csv file, got ".*notes\.txt"/],
      [join(dir, 'nothing-here.parquet'), /no file at ".*nothing-here\.parquet"/],
    ];
    const folder = join(dir, 'folder.csv');
    mkdirSync(folder);
    for (const [path, detail] of [...cases, [folder, /a directory/] as [string, RegExp]]) {
      const answer = await register(path);
      assert.equal(answer.status, 422, `${path}: ${JSON.stringify(answer.body)}`);
      assert.match(answer.body.detail, detail);
      assert.equal(answer.body.error.fields[0].path, 'source.file');
    }
  });
});

describe('service: a team server and files where they lie', function () {
  this.timeout(120_000);
  it('refuses a file with a 403 naming --database on a PostgreSQL store', async () => {
    const service = await startService({ database: await (await testCluster()).createDatabase() });
    try {
      const answer = await client(service.url, service.apiKey)('POST', '/v1/datasets', { json: { source: { file: '/tmp/customers.csv' } } });
      assert.equal(answer.status, 403, JSON.stringify(answer.body));
      assert.match(answer.body.detail, /--database/);
      assert.equal(answer.body.error.fields[0].path, 'source.file');
    } finally {
      await service.stop();
      removeDir(service.dataDir);
    }
  });
});
