import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { churnCsv } from '../client/localService';
import { TEST_BACKEND, client, removeDir, runCli, startService, storedText, type Call, type ServiceProcess } from './harness';
import { testCluster } from './postgresCluster';
import { uploadCsv } from './fixtures';
import { churnRows, duckdbWithCustomers, postgresWithCustomers } from './sources/sourceDatabases';

const ROWS = 300;

/** The customers as a CSV, in the order the service reads a table (by every column; customer_id is unique). */
function sortedCustomersCsv(): string {
  const [header] = churnCsv(1).split('\n');
  const rows = churnRows(ROWS).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return `${header}\n${rows.map((r) => r.join(',')).join('\n')}\n`;
}

async function train(call: Call, body: Record<string, unknown>) {
  return call('POST', '/v1/models/train', { json: { target_column: 'churned', model_name: 'churn', drop_columns: ['customer_id'], ...body } });
}

/** The fitted model of a version without what names the version itself. */
async function fittedModel(call: Call, versionId: string): Promise<unknown> {
  const { body } = await call('GET', `/v1/models/versions/${versionId}/payload`);
  return JSON.parse(JSON.stringify(body), (key, value: unknown) => (['version_id', 'model_id', 'created', 'dataset_id', 'partition_id'].includes(key) ? undefined : value));
}

describe('service: datasets whose rows stay in a database', function () {
  this.timeout(180_000);
  let dir: string;
  let postgresUrl: string;
  let password: string;
  let duckdb: { file: string; parquet: string };
  let service: ServiceProcess;
  let call: Call;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'xmodels-sources-'));
    postgresUrl = await postgresWithCustomers(ROWS);
    password = decodeURIComponent(new URL(postgresUrl).password);
    duckdb = await duckdbWithCustomers(dir, ROWS);
    service = await startService({
      // A service on a shared database takes connections from its caller only when allowed, to hosts it allows.
      args: [
        '--connection', `warehouse=duckdb://${duckdb.file}`, '--max-rows-in-memory', '1000',
        ...(TEST_BACKEND === 'postgres' ? ['--allow-connection-api', '--connection-host', new URL(postgresUrl).hostname] : []),
      ],
      env: { XMODELS_CONNECTIONS: 'ignored=duckdb::memory:' },
    });
    call = client(service.url, service.apiKey);
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the operator connections and adds, tests and removes its caller\'s in memory', async () => {
    assert.ok((await call('GET', '/v1/health')).body.features.includes('sources'));
    assert.deepEqual((await call('GET', '/v1/connections')).body, [{ name: 'warehouse', kind: 'duckdb', tables: 2, origin: 'operator' }], '--connection wins over XMODELS_CONNECTIONS');
    const added = await call('POST', '/v1/connections', { json: { name: 'sales', url: postgresUrl } });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(added.body, { name: 'sales', kind: 'postgres', tables: 2, origin: 'api' });
    const tables = await call('GET', '/v1/connections/sales/tables');
    assert.deepEqual(tables.body, [
      { schema: 'public', table: 'customers', rows_estimate: ROWS },
      { schema: 'public', table: 'tagged', rows_estimate: 1 },
    ]);
    const columns = await call('GET', '/v1/connections/sales/tables/public/tagged/columns');
    assert.deepEqual(columns.body, [
      { name: 'id', type: 'integer', usable: true },
      { name: 'tags', type: 'integer[]', usable: false },
      { name: 'extra', type: 'jsonb', usable: false },
    ]);
    assert.equal((await call('GET', '/v1/connections/sales/tables/public/nothing/columns')).status, 404);
    assert.equal((await call('DELETE', '/v1/connections/warehouse')).status, 403, "the operator's connections stay");
    assert.equal((await call('POST', '/v1/connections', { json: { name: 'gone', url: 'duckdb::memory:' } })).status, 200);
    assert.equal((await call('DELETE', '/v1/connections/gone')).status, 204);
    assert.equal((await call('DELETE', '/v1/connections/gone')).status, 404);
  });

  it('answers a connection that fails its test with what failed, never the password', async () => {
    const url = new URL(postgresUrl);
    const wrongPassword = `postgres://${url.username}:wrong-${password}@${url.host}/${url.pathname.slice(1)}`;
    const login = await call('POST', '/v1/connections', { json: { name: 'bad', url: wrongPassword } });
    assert.equal(login.status, 422);
    assert.match(login.body.detail, /Connection bad: .*refused the login/);
    const closedPort = await call('POST', '/v1/connections', { json: { name: 'bad', url: `postgres://u:${password}@127.0.0.1:1/db` } });
    assert.match(closedPort.body.detail, /connection refused/);
    const missingFile = await call('POST', '/v1/connections', { json: { name: 'bad', url: `duckdb://${join(dir, 'none.duckdb')}` } });
    assert.match(missingFile.body.detail, /none\.duckdb does not exist/);
    const notAUrl = await call('POST', '/v1/connections', { json: { name: 'bad', url: `mysql://u:${password}@h/db` } });
    assert.deepEqual([notAUrl.status, notAUrl.body.error.fields[0].path], [422, 'url']);
    for (const answer of [login, closedPort, notAUrl]) assert.ok(!JSON.stringify(answer.body).includes(password));
    assert.ok(!(await call('GET', '/v1/connections')).body.some((c: { name: string }) => c.name === 'bad'), 'nothing was added');
  });

  it('trains on a table the same model as on the same rows uploaded as a CSV, and records the source', async () => {
    await call('POST', '/v1/connections', { json: { name: 'sales', url: postgresUrl } });
    const registered = await call('POST', '/v1/datasets', { json: { source: { connection: 'sales', table: 'public.customers' } } });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    assert.deepEqual(
      { ...registered.body, dataset_id: undefined, created: undefined },
      {
        dataset_id: undefined,
        created: undefined,
        name: 'public.customers',
        rows: ROWS,
        columns: ['customer_id', 'tenure', 'plan', 'monthly', 'region', 'churned'],
        size_bytes: 0,
        source: { connection: 'sales', table: 'public.customers' },
      },
    );
    const fromTable = await train(call, { dataset_id: registered.body.dataset_id });
    assert.equal(fromTable.status, 200, JSON.stringify(fromTable.body));
    assert.equal(fromTable.body.execution, 'in_memory');
    assert.deepEqual(fromTable.body.source, { connection: 'sales', table: 'public.customers' });
    const fromCsv = await train(call, { dataset_id: await uploadCsv(call, sortedCustomersCsv()) });
    assert.deepEqual(fromCsv.body.source, null);
    assert.deepEqual(await fittedModel(call, fromTable.body.version_id), await fittedModel(call, fromCsv.body.version_id));
    assert.deepEqual(fromTable.body.test_metrics, fromCsv.body.test_metrics);

    const versions = (await call('GET', `/v1/models/versions/${fromTable.body.model_id}`)).body;
    assert.deepEqual([versions[0].execution, versions[0].dataset_source], ['in_memory', { connection: 'sales', table: 'public.customers' }]);
    const again = await train(call, { dataset_id: registered.body.dataset_id, model_id: fromTable.body.model_id });
    assert.deepEqual(await fittedModel(call, again.body.version_id), await fittedModel(call, fromTable.body.version_id), 'the frame read once is reused');
    const predicted = await call('POST', `/v1/models/versions/${fromTable.body.version_id}/predict`, { json: { dataset_id: registered.body.dataset_id } });
    assert.equal(predicted.body.predictions.length, ROWS);
    const summary = await call('POST', '/v1/autotrain/summarize', { json: { req: { dataset_id: registered.body.dataset_id } } });
    assert.equal(summary.status, 200, JSON.stringify(summary.body));
  });

  it('registers a query over Parquet files through DuckDB, and a table of a DuckDB file', async () => {
    assert.equal((await call('POST', '/v1/connections', { json: { name: 'files', url: 'duckdb::memory:' } })).status, 200);
    const query = `SELECT * FROM read_parquet('${join(dir, '*.parquet')}') WHERE tenure >= 12;`;
    const fromParquet = await call('POST', '/v1/datasets', { json: { name: 'long customers', source: { connection: 'files', query } } });
    assert.equal(fromParquet.status, 200, JSON.stringify(fromParquet.body));
    const longCustomers = churnRows(ROWS).filter((r) => Number(r[1]) >= 12).length;
    assert.equal(fromParquet.body.rows, longCustomers);
    const trained = await train(call, { dataset_id: fromParquet.body.dataset_id });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    assert.equal(trained.body.n_train + trained.body.n_test, longCustomers);
    const fromFile = await call('POST', '/v1/datasets', { json: { source: { connection: 'warehouse', table: 'customers' } } });
    assert.equal((await train(call, { dataset_id: fromFile.body.dataset_id })).status, 200);
  });

  it('answers each bad source with a 4xx naming it, and keeps nothing', async () => {
    const before = (await call('GET', '/v1/datasets')).body.length;
    const register = (source: Record<string, string>) => call('POST', '/v1/datasets', { json: { source } });
    const expect = async (source: Record<string, string>, status: number, field: string, detail: RegExp) => {
      const res = await register(source);
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.equal(res.body.error.fields[0].path, field);
      assert.match(res.body.detail, detail);
    };
    await expect({ connection: 'nowhere', table: 'customers' }, 404, 'source.connection', /no connection named nowhere/);
    await expect({ connection: 'sales', table: 'missing' }, 404, 'source.table', /"missing" does not exist/);
    await expect({ connection: 'sales', query: 'DELETE FROM customers' }, 422, 'source.query', /starts with DELETE/);
    await expect({ connection: 'sales', query: 'SELECT 1; SELECT 2' }, 422, 'source.query', /more than one statement/);
    await expect({ connection: 'sales', query: 'WITH d AS (DELETE FROM customers RETURNING *) SELECT * FROM d' }, 422, 'source.query', /data-modifying/);
    await expect({ connection: 'sales', query: "SELECT nextval('counter') AS n" }, 422, 'source.query', /read-only transaction/);
    await expect({ connection: 'sales', query: 'SELECT 1 / 0 AS x' }, 422, 'source.query', /division by zero/);
    await expect({ connection: 'sales', table: 'tagged' }, 422, 'source.table', /Column tags has type integer\[\]/);
    await expect({ connection: 'sales', query: 'SELECT 1 AS a, 2 AS a' }, 422, 'source.query', /column a more than once/);
    await expect({ connection: 'sales', query: 'SELECT * FROM customers WHERE false' }, 422, 'source.query', /no rows/);
    assert.equal((await call('POST', '/v1/datasets', { json: { source: { connection: 'sales', table: 'customers', query: 'SELECT 1' } } })).status, 422);
    assert.equal((await call('GET', '/v1/datasets')).body.length, before);
    const db = new Client({ connectionString: postgresUrl });
    await db.connect();
    assert.equal(Number((await db.query('SELECT count(*) AS n FROM customers')).rows[0].n), ROWS, 'the source is untouched');
    await db.end();
  });

  it('trains and summarises a source dataset over the in-memory budget where it lives, and answers what cannot be with a 422 naming it', async () => {
    await call('POST', '/v1/connections', { json: { name: 'files', url: 'duckdb::memory:' } });
    const big = await call('POST', '/v1/datasets', { json: { source: { connection: 'files', query: 'SELECT range AS x, range % 2 AS y FROM range(1001)' } } });
    assert.equal(big.body.rows, 1001);
    const over = await call('POST', '/v1/models/train', { json: { target_column: 'y', model_name: 'big', dataset_id: big.body.dataset_id, execution: 'in_memory' } });
    assert.equal(over.status, 422);
    assert.match(over.body.detail, /1001 rows .*--max-rows-in-memory 1000/);
    assert.match(over.body.error.suggestion, /execution "auto" or "pushdown"/);
    const auto = await call('POST', '/v1/models/train', { json: { target_column: 'y', model_name: 'big', dataset_id: big.body.dataset_id } });
    assert.equal(auto.status, 200, JSON.stringify(auto.body));
    assert.equal(auto.body.execution, 'pushdown');
    const summary = await call('POST', '/v1/autotrain/summarize', { json: { req: { dataset_id: big.body.dataset_id } } });
    assert.equal(summary.status, 200, JSON.stringify(summary.body));
    assert.equal(summary.body.rows, 1001, 'counted over every row');
    assert.ok(summary.body.sample_rows <= 1000, `the rules read a sample within the budget (${summary.body.sample_rows} rows)`);
    const predicted = await call('POST', `/v1/models/versions/${auto.body.version_id}/predict`, { json: { dataset_id: big.body.dataset_id } });
    assert.equal(predicted.status, 422);
    assert.match(predicted.body.detail, /--max-rows-in-memory 1000/);
    const pushdown = await call('POST', '/v1/models/train', { json: { target_column: 'y', model_name: 'big', csv_content: 'x,y\n1,0\n2,1\n', execution: 'pushdown' } });
    assert.deepEqual([pushdown.status, pushdown.body.error.fields[0].path], [422, 'execution']);
    assert.match(pushdown.body.detail, /needs a dataset_id of a dataset registered from a connection/);
  });

  it('cancels a registration\'s query when its caller goes away', async () => {
    const controller = new AbortController();
    const sleeping = fetch(`${service.url}/v1/datasets`, {
      method: 'POST',
      headers: { api_key: service.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ source: { connection: 'sales', query: 'SELECT 1 AS x FROM pg_sleep(120)' } }),
      signal: controller.signal,
    }).catch(() => 'aborted');
    const db = new Client({ connectionString: postgresUrl });
    await db.connect();
    const active = async () => (await db.query("SELECT count(*) AS n FROM pg_stat_activity WHERE query LIKE '%pg_sleep(120)%' AND pid <> pg_backend_pid() AND state = 'active'")).rows[0].n;
    while (Number(await active()) === 0) await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    assert.equal(await sleeping, 'aborted');
    while (Number(await active()) > 0) await new Promise((r) => setTimeout(r, 50));
    await db.end();
  });

  it('keeps the password out of every answer, log line and stored row', async () => {
    const answers = JSON.stringify([(await call('GET', '/v1/connections')).body, (await call('GET', '/v1/datasets')).body]);
    assert.ok(!answers.includes(password));
    assert.ok(!service.stderr().includes(password), 'log');
    assert.ok(!(await storedText(service)).includes(password), 'store');
    assert.match(await storedText(service), /connection\W+sales/, 'the store names the connection');
  });
});

describe('service: who may add connections', function () {
  this.timeout(60_000);

  it('a service open to the network or on a shared database takes connections from its operator only, unless allowed', async () => {
    const cases: [{ args?: string[]; database?: string }, boolean][] = [
      [{ args: ['--allow-remote'] }, false],
      [{ args: ['--allow-remote', '--allow-connection-api'] }, true],
      [{ database: await (await testCluster()).createDatabase() }, false],
      // Every service of the PostgreSQL backend runs with --database.
      ...(TEST_BACKEND === 'sqlite' ? [[{}, true] as [{ args?: string[] }, boolean]] : []),
    ];
    for (const [options, allowed] of cases) {
      const service = await startService(options);
      const call = client(service.url, service.apiKey);
      const added = await call('POST', '/v1/connections', { json: { name: 'files', url: 'duckdb::memory:' } });
      assert.equal(added.status, allowed ? 200 : 403, JSON.stringify(added.body));
      if (!allowed) assert.match(added.body.detail, /from its operator only/);
      assert.equal((await call('DELETE', '/v1/connections/files')).status, allowed ? 204 : 403);
      await service.stop();
      removeDir(service.dataDir);
    }
  });

  it('a team server connects a caller\u2019s connection to public addresses only: no IPv6 form of a private one gets through', async () => {
    let reached = 0;
    const listener = createServer((socket) => {
      reached++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    const service = await startService({ args: ['--allow-remote', '--allow-connection-api'] });
    const call = client(service.url, service.apiKey);
    const hosts = ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]', '[::127.0.0.1]', '[64:ff9b::7f00:1]', '[64:ff9b::a9fe:a9fe]', '[64:ff9b:1::7f00:1]', '[2002:7f00:1::1]', '[2001::7f00:1]', '[::ffff:0:127.0.0.1]', '[fec0::1]', '10.0.0.1'];
    for (const host of hosts) {
      const added = await call('POST', '/v1/connections', { json: { name: 'sales', url: `postgres://reader:hunter2@${host}:${port}/db` } });
      assert.equal(added.status, 403, `${host}: ${JSON.stringify(added.body)}`);
      assert.deepEqual(added.body.error.fields.map((f: { path: string }) => f.path), ['url']);
      assert.match(added.body.detail, /^Connection sales: the host .* (is|resolves to) .*: this service connects a connection added through the API to public addresses only\.$/, host);
      assert.match(added.body.error.suggestion, /serve --connection NAME=URL.*--connection-host HOST/);
      assert.ok(!JSON.stringify(added.body).includes('hunter2'));
    }
    assert.equal(reached, 0, 'no connection reached the listener');
    assert.deepEqual((await call('GET', '/v1/connections')).body, []);
    await service.stop();
    removeDir(service.dataDir);

    const allowing = await startService({ args: ['--allow-remote', '--allow-connection-api', '--connection-host', '127.0.0.1'] });
    const added = await client(allowing.url, allowing.apiKey)('POST', '/v1/connections', { json: { name: 'sales', url: `postgres://reader:hunter2@127.0.0.1:${port}/db` } });
    assert.equal(added.status, 422, 'the allowed host is connected to, and is no PostgreSQL');
    assert.equal(reached, 1);
    await allowing.stop();
    removeDir(allowing.dataDir);
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });

  it('serve refuses a bad connection definition, and DuckDB without its package, naming them', async () => {
    const bad = await runCli(['serve', '--port', '0', '--connection', 'sales=mysql://u:secret@h/db']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /mysql:\/\/u:\*\*\*@h\/db/);
    assert.ok(!bad.stderr.includes('secret'));
    const fromEnv = await runCli(['serve', '--port', '0', '--max-rows-in-memory', '10'], { XMODELS_CONNECTIONS: '9=duckdb::memory:' });
    assert.match(fromEnv.stderr, /connection name "9"/);
    const noPackage = await runCli(['serve', '--port', '0', '--connection', 'files=duckdb::memory:'], { NODE_PATH: '' });
    assert.equal(noPackage.code, 2);
    assert.match(noPackage.stderr, /@duckdb\/node-api package, which is missing from this installation/);
  });

  it('a service without DuckDB\'s package starts and answers a DuckDB connection with a 422 saying so', async () => {
    const service = await startService({ args: ['--allow-connection-api'], env: { NODE_PATH: '' } });
    const call = client(service.url, service.apiKey);
    const added = await call('POST', '/v1/connections', { json: { name: 'files', url: 'duckdb::memory:' } });
    assert.equal(added.status, 422);
    assert.match(added.body.detail, /missing from this installation/);
    await service.stop();
    removeDir(service.dataDir);
  });
});
