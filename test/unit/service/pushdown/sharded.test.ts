import assert from 'node:assert/strict';
import { Client } from 'pg';
import { ModelPayloadSchema } from '../../../../src/contract';
import { client, removeDir, startService, type Call, type ServiceProcess } from '../harness';
import { startPrivateCluster, type Server } from '../postgresCluster';
import { customersSql, postgresSeries } from './generatedCustomers';

const ROWS = 20_000;
const BUDGET = 4_000;
const COLUMNS = 'id integer, x1 double precision, x2 double precision, grade text, churned integer';

async function run(server: Server, statements: readonly string[]): Promise<Record<string, unknown>[]> {
  const db = new Client({ connectionString: server.adminUrl() });
  await db.connect();
  try {
    let rows: Record<string, unknown>[] = [];
    for (const statement of statements) rows = (await db.query(statement)).rows as Record<string, unknown>[];
    return rows;
  } finally {
    await db.end();
  }
}

/** What the shards have sent the coordinator since `reset`: the rows its cursors fetched, and the statements. */
async function shipped(shards: readonly Server[]): Promise<{ rows: number; statements: string[] }> {
  let rows = 0;
  const statements: string[] = [];
  for (const shard of shards) {
    const tracked = await run(shard, ['SELECT query, rows FROM pg_stat_statements']);
    rows += tracked.filter((t) => /^FETCH\b/i.test(String(t.query))).reduce((sum, t) => sum + Number(t.rows), 0);
    statements.push(...tracked.map((t) => String(t.query)).filter((q) => /^DECLARE\b/i.test(q)));
  }
  return { rows, statements };
}

const reset = (shards: readonly Server[]) => Promise.all(shards.map((shard) => run(shard, ['SELECT pg_stat_statements_reset()'])));

/**
 * PostgreSQL's own sharding: a table hash-partitioned over two servers, each partition a postgres_fdw foreign table,
 * with partitionwise aggregates and asynchronous appends on. The shards' pg_stat_statements tell what they sent.
 */
describe('pushdown: a table sharded over two PostgreSQL servers by postgres_fdw', function () {
  this.timeout(120_000);
  let shards: Server[];
  let coordinator: Server;
  let service: ServiceProcess;
  let call: Call;

  before(async () => {
    const tracking = ["shared_preload_libraries = 'pg_stat_statements'", 'pg_stat_statements.track = all'];
    shards = await Promise.all([startPrivateCluster(tracking), startPrivateCluster(tracking)]);
    coordinator = await startPrivateCluster();
    await Promise.all(shards.map((shard, k) => run(shard, ['CREATE EXTENSION pg_stat_statements', `CREATE TABLE customers_p${k} (${COLUMNS})`])));
    await run(coordinator, [
      'CREATE EXTENSION postgres_fdw',
      ...shards.flatMap((shard, k) => {
        const login = new URL(shard.adminUrl());
        return [
          `CREATE SERVER shard${k} FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '${shard.host}', port '${shard.port}', dbname 'postgres', async_capable 'true', batch_size '1000', fetch_size '1000')`,
          `CREATE USER MAPPING FOR CURRENT_USER SERVER shard${k} OPTIONS (user '${login.username}', password '${login.password}')`,
        ];
      }),
      `CREATE TABLE customers (${COLUMNS}) PARTITION BY HASH (id)`,
      ...shards.map((_, k) => `CREATE FOREIGN TABLE customers_p${k} PARTITION OF customers FOR VALUES WITH (MODULUS 2, REMAINDER ${k}) SERVER shard${k}`),
      `INSERT INTO customers ${customersSql(postgresSeries(ROWS))}`,
      // The same rows in one table of the coordinator, in another order.
      'CREATE TABLE customers_one AS SELECT * FROM customers ORDER BY x2, id DESC',
      'ALTER DATABASE postgres SET enable_partitionwise_aggregate = on',
      'ALTER DATABASE postgres SET enable_partitionwise_join = on',
    ]);
    service = await startService({ args: ['--connection', `cluster=${coordinator.adminUrl()}`, '--max-rows-in-memory', String(BUDGET)] });
    call = client(service.url, service.apiKey);
  });
  after(async () => {
    await service?.stop();
    if (service) removeDir(service.dataDir);
  });

  async function trainOn(table: string) {
    const registered = await call('POST', '/v1/datasets', { json: { name: table, source: { connection: 'cluster', table } } });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    assert.equal(registered.body.rows, ROWS);
    await reset(shards);
    const trained = await call('POST', '/v1/models/train', {
      json: { dataset_id: registered.body.dataset_id, target_column: 'churned', model_type: 'classifier', model_name: table, drop_columns: ['id'], outer_bags: 2 },
    });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    assert.equal(trained.body.execution, 'pushdown');
    const payload = ModelPayloadSchema.parse((await call('GET', `/v1/models/versions/${trained.body.version_id}/payload`)).body);
    return { datasetId: registered.body.dataset_id as string, body: trained.body, partitions: payload.partitions, shipped: await shipped(shards) };
  }

  it('trains the same model as from the same rows in one table, with only the samples and the test rows (for the metrics and the curves) sent by the shards', async () => {
    const one = await trainOn('customers_one');
    assert.equal(one.shipped.rows, 0, 'the one table is the coordinator’s own');
    const sharded = await trainOn('customers');
    assert.deepEqual(sharded.partitions, one.partitions, 'the same model');
    assert.equal(sharded.body.n_test, one.body.n_test);
    assert.ok(Math.abs(sharded.body.test_metrics.roc_auc - one.body.test_metrics.roc_auc) < 1e-9, `test AUC ${sharded.body.test_metrics.roc_auc} vs ${one.body.test_metrics.roc_auc}`);
    // The split's and the samples' filters run at the shards: they send the training sample, the test sample and the
    // test rows twice, for the metrics and for the curves' histograms (both computed at the coordinator, for now),
    // never every row.
    const testSampleMost = Math.ceil(0.2 * BUDGET);
    const most = sharded.body.n_train + testSampleMost + 2 * sharded.body.n_test;
    assert.ok(sharded.shipped.rows <= most, `the shards sent ${sharded.shipped.rows} rows, more than the samples and twice the test rows (${most})`);
    assert.ok(sharded.shipped.rows < ROWS, `the shards sent ${sharded.shipped.rows} of the ${ROWS} rows`);
    const filtered = sharded.shipped.statements.filter((s) => /WHERE .*hashint8extended/is.test(s));
    assert.ok(filtered.length >= 2 * 3, `each shard filters by the row hash for both samples and the test rows:\n${sharded.shipped.statements.join('\n')}`);
  });

  it('predicts every row of the sharded table into a table of the coordinator', async () => {
    const { body, datasetId } = await trainOn('customers');
    const written = await call('POST', `/v1/models/versions/${body.version_id}/predict`, { json: { dataset_id: datasetId, output_table: 'scored' } });
    assert.equal(written.status, 200, JSON.stringify(written.body));
    assert.equal(written.body.n, ROWS);
    const [{ n }] = await run(coordinator, ['SELECT count(*) AS n FROM scored WHERE xm_probability BETWEEN 0 AND 1']);
    assert.equal(Number(n), ROWS);
  });
});
