import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Client } from 'pg';
import { client, removeDir, startService, type Call, type ServiceProcess } from '../harness';
import { testCluster } from '../postgresCluster';
import { customersSql, duckdbSeries, postgresSeries } from './generatedCustomers';

const ROWS = 5_000_000;
const BUDGET = 200_000;

describe('pushdown on five million rows in PostgreSQL and in a Parquet file', function () {
  this.timeout(600_000);
  let dir: string;
  let service: ServiceProcess;
  let call: Call;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'xmodels-large-'));
    const url = await (await testCluster()).createDatabase();
    const pg = new Client({ connectionString: url });
    await pg.connect();
    await pg.query(`CREATE TABLE customers AS ${customersSql(postgresSeries(ROWS))}`);
    await pg.query('ANALYZE customers');
    await pg.end();
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    await duck.run(`COPY (${customersSql(duckdbSeries(ROWS))}) TO '${join(dir, 'customers.parquet')}' (FORMAT parquet)`);
    duck.closeSync();
    service = await startService({ args: ['--connection', `warehouse=${url}`, '--connection', 'lake=duckdb::memory:', '--max-rows-in-memory', String(BUDGET)] });
    call = client(service.url, service.apiKey);
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
    rmSync(dir, { recursive: true, force: true });
  });

  const parquet = () => `SELECT * FROM read_parquet('${join(dir, 'customers.parquet')}')`;
  for (const [what, source, sampleSource] of [
    ['a PostgreSQL table', () => ({ connection: 'warehouse', table: 'customers' }), () => ({ connection: 'warehouse', query: 'SELECT * FROM customers WHERE id % 40 = 0' })],
    ['a Parquet file read by DuckDB', () => ({ connection: 'lake', query: parquet() }), () => ({ connection: 'lake', query: `${parquet()} WHERE id % 40 = 0` })],
  ] as const) {
    it(`trains ${what} where it lives, as well as an in-memory fit of a sample of it`, async () => {
      const registered = await call('POST', '/v1/datasets', { json: { name: what, source: source() } });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      assert.equal(registered.body.rows, ROWS);
      const body = { target_column: 'churned', model_type: 'classifier', drop_columns: ['id'] };
      const pushdown = await call('POST', '/v1/models/train', { json: { ...body, model_name: `${what}, pushdown`, dataset_id: registered.body.dataset_id } });
      assert.equal(pushdown.status, 200, JSON.stringify(pushdown.body));
      assert.equal(pushdown.body.execution, 'pushdown');
      assert.ok(Math.abs(pushdown.body.n_test / ROWS - 0.2) < 0.002, `every test row is scored (${pushdown.body.n_test})`);
      assert.ok(pushdown.body.n_train <= 0.8 * BUDGET, `the service held at most its budget (${pushdown.body.n_train} training rows)`);

      const sample = await call('POST', '/v1/datasets', { json: { name: `${what}, a sample`, source: sampleSource() } });
      assert.equal(sample.status, 200, JSON.stringify(sample.body));
      const inMemory = await call('POST', '/v1/models/train', { json: { ...body, model_name: `${what}, in memory`, dataset_id: sample.body.dataset_id } });
      assert.equal(inMemory.status, 200, JSON.stringify(inMemory.body));
      assert.equal(inMemory.body.execution, 'in_memory');
      const [inSource, sampled] = [pushdown.body.test_metrics.roc_auc as number, inMemory.body.test_metrics.roc_auc as number];
      assert.ok(inSource >= sampled - 0.005, `test AUC ${inSource} where the rows live, ${sampled} in memory on a fortieth of them`);
    });
  }
});
