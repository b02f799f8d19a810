import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, removeDir, startService, type Call, type ServiceProcess } from '../harness';
import { writeCsv, writeParquet } from './duckdbParquet';

const ROWS = 20_000;
const BUDGET = 2_000;

/** Customers whose churn follows tenure and plan, with noise from a hash of the row number. */
const CUSTOMERS = `
  SELECT i AS customer_id, (i * 37) % 72 AS tenure, ['basic', 'plus', 'pro'][1 + i % 3] AS plan,
         CASE WHEN i % 7 = 0 THEN NULL ELSE round(20 + ((i * 53) % 100) / 2.0, 2) END AS monthly,
         CASE WHEN ((i * 37) % 72) + 8 * (i % 3) - 12 * (hash(i) % 3) < 30 THEN 'yes' ELSE 'no' END AS churned
  FROM range(${ROWS}) t(i)`;

describe('service: a Parquet upload larger than the in-memory budget', function () {
  this.timeout(300_000);
  let dir: string;
  let service: ServiceProcess;
  let call: Call;
  let parquet: Buffer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'xmodels-large-parquet-'));
    parquet = readFileSync(await writeParquet(CUSTOMERS, join(dir, 'customers.parquet'), 'ROW_GROUP_SIZE 4096'));
    service = await startService({ args: ['--max-rows-in-memory', String(BUDGET)] });
    call = client(service.url, service.apiKey);
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
    rmSync(dir, { recursive: true, force: true });
  });

  const upload = (on: Call, bytes: Buffer, name: string, contentType: string) => on('POST', `/v1/datasets?name=${name}`, { body: bytes, contentType });
  const train = (datasetId: string, execution?: string) =>
    call('POST', '/v1/models/train', { json: { dataset_id: datasetId, target_column: 'churned', model_name: 'churn', drop_columns: ['customer_id'], ...(execution ? { execution } : {}) } });

  it('is kept where it lies and trained there, as well as the whole file in memory', async () => {
    const uploaded = await upload(call, parquet, 'customers', 'application/vnd.apache.parquet');
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
    assert.equal(uploaded.body.rows, ROWS, 'the rows are counted from the footer');
    assert.deepEqual(uploaded.body.columns, ['customer_id', 'tenure', 'plan', 'monthly', 'churned']);
    const pushed = await train(uploaded.body.dataset_id);
    assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
    assert.equal(pushed.body.execution, 'pushdown', 'more rows than the budget: trained where the file lies');
    assert.ok(pushed.body.n_train <= 0.8 * BUDGET, `the training sample (${pushed.body.n_train} rows) stays within its share of the budget`);
    assert.ok(Math.abs(pushed.body.n_test - 0.2 * ROWS) < 0.02 * ROWS, `every test row of the file is scored (${pushed.body.n_test})`);

    // The same rows as a CSV upload, which is read whole into memory whatever its size.
    const csv = await upload(call, readFileSync(await writeCsv(CUSTOMERS, join(dir, 'customers.csv'))), 'customers-csv', 'text/csv');
    assert.equal(csv.status, 200, JSON.stringify(csv.body));
    const inMemory = await train(csv.body.dataset_id);
    assert.equal(inMemory.body.execution, 'in_memory');
    const gap = inMemory.body.test_metrics.roc_auc - pushed.body.test_metrics.roc_auc;
    assert.ok(gap < 0.02, `pushdown AUC ${pushed.body.test_metrics.roc_auc} vs in memory ${inMemory.body.test_metrics.roc_auc}`);
  });

  it('is summarised from a reproducible sample, with the counts and statistics of every row', async () => {
    const uploaded = await upload(call, parquet, 'customers to summarise', 'application/vnd.apache.parquet');
    const summarize = () => call('POST', '/v1/autotrain/summarize', { json: { req: { dataset_id: uploaded.body.dataset_id } } });
    const summary = await summarize();
    assert.equal(summary.status, 200, JSON.stringify(summary.body));
    assert.equal(summary.body.rows, ROWS);
    assert.ok(summary.body.sample_rows > 0.8 * BUDGET && summary.body.sample_rows <= BUDGET, `a sample within the budget (${summary.body.sample_rows} rows)`);
    const monthly = [...Array(ROWS).keys()].filter((i) => i % 7 !== 0).map((i) => Math.round((20 + ((i * 53) % 100) / 2) * 100) / 100);
    assert.equal(summary.body.missing_values.monthly, ROWS - monthly.length);
    const tenure = [...Array(ROWS).keys()].map((i) => (i * 37) % 72);
    const field = (name: string) => summary.body.fields.find((f: { column: string }) => f.column === name).properties;
    assert.ok(Math.abs(field('tenure').mean - tenure.reduce((a, b) => a + b, 0) / ROWS) < 1e-9, `mean tenure ${field('tenure').mean}`);
    assert.equal(field('monthly').max, Math.max(...monthly));
    assert.equal(field('churned').dtype, 'boolean', 'the types come from the sample');
    assert.deepEqual((await summarize()).body, summary.body, 'the same summary again');
    const labels = await call('POST', '/v1/autotrain/generate_labels', { json: { req: { summary: summary.body } } });
    assert.equal(labels.status, 200, JSON.stringify(labels.body));
    assert.ok(labels.body.labels.some((l: { column: string }) => l.column === 'churned'), JSON.stringify(labels.body.labels));
  });

  it('answers what needs its rows in memory with a 422 naming the budget, and pushdown predictions need a table', async () => {
    const uploaded = await upload(call, parquet, 'customers again', 'application/vnd.apache.parquet');
    const datasetId = uploaded.body.dataset_id as string;
    const inMemory = await train(datasetId, 'in_memory');
    assert.equal(inMemory.status, 422);
    assert.match(inMemory.body.error.message, /20000 rows.*--max-rows-in-memory 2000/);
    const trained = await train(datasetId);
    const predicted = await call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { dataset_id: datasetId, output_table: 'scored' } });
    assert.equal(predicted.status, 422);
    assert.equal(predicted.body.error.fields[0].path, 'output_table');
  });

  it('is refused, with nothing kept, by an installation without DuckDB', async () => {
    const bare = await startService({ args: ['--max-rows-in-memory', String(BUDGET)], env: { NODE_PATH: '' } });
    try {
      const on = client(bare.url, bare.apiKey);
      const refused = await upload(on, parquet, 'customers', 'application/vnd.apache.parquet');
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.match(refused.body.error.message, /20000 rows.*lacks DuckDB/);
      assert.deepEqual((await on('GET', '/v1/datasets')).body, []);
      const files = readdirSync(join(bare.dataDir, 'datasets'));
      assert.deepEqual(files.filter((f) => !f.startsWith('.')), [], `left behind: ${files.join(', ')}`);
    } finally {
      await bare.stop();
      removeDir(bare.dataDir);
    }
  });
});
