import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XModelsApiError, XModelsClient } from '../../../src/client';
import { removeDir } from '../service/harness';
import { duckdbWithCustomers } from '../service/sources/sourceDatabases';
import { startLocalService, type LocalService } from './localService';

describe('client: connections and source datasets against the real local service', function () {
  this.timeout(60_000);
  let service: LocalService;
  let client: XModelsClient;
  let dir: string;
  let file: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'xmodels-client-sources-'));
    file = (await duckdbWithCustomers(dir, 200)).file;
    service = await startLocalService();
    client = new XModelsClient({ baseUrl: service.url, apiKey: service.api_key });
  });
  after(async () => {
    await client?.close();
    await service?.stop();
    if (dir) removeDir(dir);
  });

  it('adds, lists, browses and removes a connection', async () => {
    assert.deepEqual(await client.connections.list(), []);
    assert.deepEqual(await client.connections.add({ name: 'warehouse', url: `duckdb://${file}` }), { name: 'warehouse', kind: 'duckdb', tables: 2, origin: 'api' });
    assert.deepEqual(
      (await client.connections.list()).map((c) => c.name),
      ['warehouse'],
    );
    const tables = await client.connections.tables('warehouse');
    assert.deepEqual(
      tables.map((t) => `${t.schema}.${t.table}`),
      ['main.customers', 'main.tagged'],
    );
    const columns = await client.connections.columns('warehouse', tables[1]);
    assert.deepEqual(
      columns.map((c) => [c.name, c.usable]),
      [
        ['id', true],
        ['tags', false],
        ['extra', false],
      ],
    );
    await client.connections.add({ name: 'scratch', url: 'duckdb::memory:' });
    await client.connections.remove('scratch');
    await assert.rejects(client.connections.remove('scratch'), (e: unknown) => e instanceof XModelsApiError && e.status === 404);
    await assert.rejects(
      client.connections.add({ name: 'broken', url: `duckdb://${join(dir, 'none.duckdb')}` }),
      (e: unknown) => e instanceof XModelsApiError && e.status === 422 && /does not exist/.test(e.detail),
    );
  });

  it('registers a table as a dataset and trains on it', async () => {
    const dataset = await client.datasets.register({ source: { connection: 'warehouse', table: 'customers' } });
    assert.deepEqual([dataset.rows, dataset.source], [200, { connection: 'warehouse', table: 'customers' }]);
    const trained = await client.models.trainModel({ dataset_id: dataset.dataset_id, target_column: 'churned', model_name: 'churn', drop_columns: ['customer_id'] });
    assert.deepEqual([trained.execution, trained.source, trained.n_train + trained.n_test], ['in_memory', dataset.source, 200]);
    await assert.rejects(
      client.datasets.register({ source: { connection: 'warehouse', query: 'SELECT * FROM tagged' } }),
      (e: unknown) => e instanceof XModelsApiError && e.status === 422 && /Column tags/.test(e.detail),
    );
  });
});
