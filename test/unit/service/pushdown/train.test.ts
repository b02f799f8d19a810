import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Client } from 'pg';
import { ClassifierMetricsSchema, ModelPayloadSchema, MulticlassMetricsSchema, RegressorMetricsSchema, type TrainingStatus } from '../../../../src/contract';
import { columnFromValues, DataFrame, evaluateModel, evaluateMulticlassModel, fromPayloads, mulberry32, multiclassFromPayloads, pairName, partitionPairs, predict } from '../../../../src/engine';
import { splitRelation } from '../../../../src/service/sources/rowSplit';
import { duckdbDialect } from '../../../../src/service/sources/duckdbDialect';
import { postgresDialect } from '../../../../src/service/sources/postgresDialect';
import type { SqlDialect } from '../../../../src/service/sources/dialect';
import { DuckDbSource } from '../../../../src/service/sources/duckdbSource';
import { PostgresSource } from '../../../../src/service/sources/postgresSource';
import type { SourceColumnInfo, SqlSource } from '../../../../src/service/sources/source';
import { client, removeDir, startService, type Call, type ServiceProcess } from '../harness';
import { testCluster } from '../postgresCluster';

const ROWS = 30_000;
const BUDGET = 6_000;
const COLUMNS = ['x1', 'x2', 'grade', 'churned', 'spend'];
/** The test metrics of each kind of model, as the service answers them: a pushdown train computes every one. */
// The metrics every model of a kind has: the schema's keys but an objective's own (optional) ones.
const [BINARY_METRICS, REGRESSOR_METRICS, MULTICLASS_METRICS] = [ClassifierMetricsSchema, RegressorMetricsSchema, MulticlassMetricsSchema].map((schema) =>
  Object.entries(schema.shape)
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([key]) => key)
    .sort(),
);

/** Customers whose churn and spend depend on two numbers and a grade, with some missing values (of a grade too). */
function customers(): (number | string | null)[][] {
  const random = mulberry32(5);
  return Array.from({ length: ROWS }, (_, i) => {
    const x1 = Math.round(random() * 1000) / 10;
    const x2 = i % 50 === 0 ? null : Math.round((random() * 4 - 2) * 100) / 100;
    const grade = ['a', 'b', 'c', 'd'][Math.floor(random() * 4)];
    const logit = (x1 - 50) / 15 + 1.5 * (x2 ?? 0) + (grade === 'a' ? 1 : grade === 'd' ? -1 : 0);
    const churned = random() < 1 / (1 + Math.exp(-logit)) ? 1 : 0;
    const spend = Math.round((20 + 0.8 * x1 + 10 * (x2 ?? 0) + (grade === 'a' ? 15 : 0) + 8 * (random() - 0.5)) * 100) / 100;
    return [x1, x2, i % 101 === 7 ? null : grade, churned, spend];
  });
}

interface Database {
  what: string;
  url: string;
  dialect: SqlDialect;
  /** The rows of a query, each a record of column values. */
  rows(sql: string): Promise<Record<string, unknown>[]>;
  /** The database as the service reads it. */
  source: SqlSource;
  /** Runs statements that write, in one transaction. */
  write(statements: readonly string[]): Promise<void>;
}

/** The columns of a query with their types, as the service describes them. */
const columnsOf = (database: Database, sql: string): Promise<SourceColumnInfo[]> => database.source.describe(sql);

async function duckdbDatabase(dir: string, data: (number | string | null)[][]): Promise<Database> {
  const file = join(dir, 'customers.duckdb');
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  await connection.run('CREATE TABLE customers (x1 DOUBLE, x2 DOUBLE, grade VARCHAR, churned INTEGER, spend DOUBLE)');
  const appender = await connection.createAppender('customers');
  for (const [x1, x2, grade, churned, spend] of data) {
    appender.appendDouble(x1 as number);
    if (x2 === null) appender.appendNull();
    else appender.appendDouble(x2 as number);
    if (grade === null) appender.appendNull();
    else appender.appendVarchar(grade as string);
    appender.appendInteger(churned as number);
    appender.appendDouble(spend as number);
    appender.endRow();
  }
  appender.closeSync();
  connection.closeSync();
  instance.closeSync();
  return {
    what: 'DuckDB',
    url: `duckdb://${file}`,
    dialect: duckdbDialect,
    source: new DuckDbSource(file),
    write: (statements) => new DuckDbSource(file).write(statements),
    rows: async (sql) => {
      const reader = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
      const c = await reader.connect();
      try {
        return (await c.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
      } finally {
        c.closeSync();
        reader.closeSync();
      }
    },
  };
}

async function postgresDatabase(data: (number | string | null)[][]): Promise<Database> {
  const url = await (await testCluster()).createDatabase();
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    await pg.query('CREATE TABLE customers (x1 double precision, x2 double precision, grade text, churned integer, spend double precision)');
    for (let start = 0; start < data.length; start += 1000) {
      const batch = data.slice(start, start + 1000);
      const values = batch.map((_, r) => `(${COLUMNS.map((__, k) => `$${r * COLUMNS.length + k + 1}`).join(', ')})`);
      await pg.query(`INSERT INTO customers VALUES ${values.join(', ')}`, batch.flat());
    }
  } finally {
    await pg.end();
  }
  return {
    what: 'PostgreSQL',
    url,
    dialect: postgresDialect,
    source: new PostgresSource(url),
    write: async (statements) => {
      const c = new Client({ connectionString: url });
      await c.connect();
      try {
        for (const statement of statements) await c.query(statement);
      } finally {
        await c.end();
      }
    },
    rows: async (sql) => {
      const c = new Client({ connectionString: url });
      await c.connect();
      try {
        return (await c.query(sql)).rows as Record<string, unknown>[];
      } finally {
        await c.end();
      }
    },
  };
}

/** The engine's frame of a query's rows, as the service reads a source's rows. */
async function frameOf(database: Database, sql: string, columns: readonly string[] = COLUMNS): Promise<DataFrame> {
  const rows = await database.rows(sql);
  return new DataFrame(columns.map((name) => columnFromValues(name, rows.map((r) => r[name] as number | string | null))));
}

describe('pushdown: a model trained where its rows live', function () {
  this.timeout(240_000);
  const data = customers();
  let dir: string;
  const databases: Database[] = [];
  let service: ServiceProcess;
  let call: Call;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'xmodels-pushdown-'));
    databases.push(await duckdbDatabase(dir, data), await postgresDatabase(data));
    const connections = databases.flatMap((d) => ['--connection', `${d.what.toLowerCase()}=${d.url}`]);
    service = await startService({ args: [...connections, '--max-rows-in-memory', String(BUDGET)] });
    call = client(service.url, service.apiKey);
  });
  after(async () => {
    await service.stop();
    for (const database of databases) await database.source.close();
    removeDir(service.dataDir);
    rmSync(dir, { recursive: true, force: true });
  });

  async function register(database: Database): Promise<string> {
    const registered = await call('POST', '/v1/datasets', { json: { name: 'customers', source: { connection: database.what.toLowerCase(), table: 'customers' } } });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    assert.equal(registered.body.rows, ROWS);
    return registered.body.dataset_id as string;
  }

  async function payloadOf(versionId: string) {
    return ModelPayloadSchema.parse((await call('GET', `/v1/models/versions/${versionId}/payload`)).body);
  }

  async function payloadModel(versionId: string) {
    const payload = await payloadOf(versionId);
    return fromPayloads(payload.partitions, payload.model_type === 'regression' ? 'regressor' : 'classifier', { target: payload.target_name, partitionOn: payload.partition_on });
  }

  for (const index of [0, 1]) {
    it(`splits every row into exactly one of the training and test rows, each sample within its part (${index === 0 ? 'DuckDB' : 'PostgreSQL'})`, async () => {
      const database = databases[index];
      const split = { testSize: 0.2, seed: 42, trainSample: 0.3, testSample: 0.5 };
      const columns = await columnsOf(database, 'SELECT * FROM customers');
      const part = (name: 'test' | 'train' | 'test-sample' | 'train-sample') => `(${splitRelation(database.dialect, 'SELECT * FROM customers', columns, split, name)})`;
      const count = async (sql: string) => Number((await database.rows(`SELECT COUNT(*) AS n FROM (${sql}) AS t`))[0].n);
      const all = `SELECT ${COLUMNS.join(', ')} FROM customers`;
      const [test, train] = [await count(part('test')), await count(part('train'))];
      assert.equal(test + train, ROWS, `${test} test and ${train} training rows`);
      assert.ok(test > 0.18 * ROWS && test < 0.22 * ROWS, `${test} test rows`);
      assert.equal(await count(`${part('test')} INTERSECT ALL ${part('train')}`), 0, 'no row is both a test and a training row');
      assert.equal(await count(`${all} EXCEPT ALL (${part('test')} UNION ALL ${part('train')})`), 0, 'every row, those with missing values too, is in one part');
      for (const [sample, whole, share] of [['test-sample', 'test', split.testSample], ['train-sample', 'train', split.trainSample]] as const) {
        assert.equal(await count(`${part(sample)} EXCEPT ALL ${part(whole)}`), 0, `the ${sample} holds ${whole} rows only`);
        const n = await count(part(sample));
        const of = whole === 'test' ? test : train;
        assert.ok(Math.abs(n / of - share) < 0.05, `the ${sample} holds ${n} of ${of} rows`);
      }
    });
  }

  for (const index of [0, 1]) {
    it(`fits on a sample within the budget and scores every test row in the source (${index === 0 ? 'DuckDB' : 'PostgreSQL'})`, async () => {
      const database = databases[index];
      const datasetId = await register(database);
      const targets = [
        ['churned', 'classifier', ['spend']],
        ['spend', 'regressor', ['churned']],
        ['grade', 'classifier', []],
      ] as const;
      for (const [target, modelType, drop] of targets) {
        const trained = await call('POST', '/v1/models/train', {
          json: { dataset_id: datasetId, target_column: target, model_type: modelType, model_name: `${target} ${database.what}`, drop_columns: drop },
        });
        assert.equal(trained.status, 200, JSON.stringify(trained.body));
        assert.equal(trained.body.execution, 'pushdown', 'more rows than the budget: fitted where they live');
        assert.deepEqual(trained.body.source, { connection: database.what.toLowerCase(), table: 'customers' });
        assert.ok(trained.body.n_train <= 0.8 * BUDGET, `the training sample (${trained.body.n_train} rows) stays within its share of the budget`);
        // The test rows the metrics were computed on, read here through the same split: the engine scores them alike.
        const testSql = splitRelation(database.dialect, 'SELECT * FROM customers', await columnsOf(database, 'SELECT * FROM customers'), { testSize: 0.2, seed: 42, trainSample: 1, testSample: 1 }, 'test');
        const testFrame = await frameOf(database, testSql);
        assert.ok(Math.abs(testFrame.nRows / ROWS - 0.2) < 0.02, `about a fifth of the rows are test rows (${testFrame.nRows})`);
        const [{ n: withTarget }] = await database.rows(`SELECT COUNT(${target}) AS n FROM (${testSql}) AS t`);
        assert.equal(trained.body.n_test, Number(withTarget), 'every test row with a target is scored');
        if (target === 'grade') {
          assert.deepEqual(trained.body.classes, ['a', 'b', 'c', 'd'], 'a multiclass model');
          assert.ok(trained.body.n_test < testFrame.nRows, 'test rows without a grade are left out');
        }
        const keys = target === 'grade' ? MULTICLASS_METRICS : modelType === 'regressor' ? REGRESSOR_METRICS : BINARY_METRICS;
        assert.deepEqual(Object.keys(trained.body.test_metrics).sort(), keys, `${database.what} ${target}: every metric of its kind`);
        const versionId = trained.body.version_id as string;
        const expected = (
          trained.body.model_type === 'multiclass_classification'
            ? evaluateMulticlassModel(multiclassFromPayloads((await payloadOf(versionId)).partitions, { target, partitionOn: null }), testFrame)
            : evaluateModel(await payloadModel(versionId), testFrame)
        ) as unknown as Record<string, unknown>;
        for (const metric of keys) {
          const value = (trained.body.test_metrics as Record<string, unknown>)[metric];
          if (typeof expected[metric] === 'number') assert.ok(Math.abs((value as number) - (expected[metric] as number)) < 1e-9, `${database.what} ${target}: ${metric} ${value} vs ${expected[metric]}`);
          else assert.deepEqual(value, expected[metric], `${database.what} ${target}: ${metric}`);
        }
        const version = (await call('GET', `/v1/models/versions/${trained.body.model_id}`)).body[0];
        assert.equal(version.execution, 'pushdown');
        await assertCurvesOfEveryTestRow(versionId, trained.body.n_test as number, expected, `${database.what} ${target}`);
      }
    });
  }

  /** The evaluation's test curves and histograms are drawn from every test row, as the engine draws them from all of them (`expected`). */
  async function assertCurvesOfEveryTestRow(versionId: string, nTest: number, expected: Record<string, unknown>, what: string) {
    const [partition] = (await call('GET', `/v1/models/partitions/${versionId}`)).body.partitions as { partition_id: string; n_test: number }[];
    assert.equal(partition.n_test, nTest, `${what}: the partition's test rows are every test row`);
    const evaluation = await call('GET', `/v1/models/evaluation/${partition.partition_id}`);
    assert.equal(evaluation.status, 200, JSON.stringify(evaluation.body));
    const test = evaluation.body.test as Record<string, unknown>;
    const sampled = (evaluation.body.warnings as string[]).filter((w) => /sample/.test(w));
    assert.deepEqual(sampled.length, 'residual_bins' in expected ? 1 : 0, `${what}: only a regressor's points are a sample, and a warning says so: ${JSON.stringify(sampled)}`);
    if ('per_class' in expected) {
      const perClass = test.per_class as { class: string; support: number; roc: unknown }[];
      const expectedPerClass = expected.per_class as { class: string; support: number; roc: unknown }[];
      assert.deepEqual(perClass.map((c) => [c.class, c.support]), expectedPerClass.map((c) => [c.class, c.support]), what);
      perClass.forEach((c, k) => assert.deepEqual(c.roc, expectedPerClass[k].roc, `${what}: the ROC curve of ${c.class}`));
    } else if ('residual_bins' in expected) {
      const [got, want] = [test.residual_bins, expected.residual_bins] as { edges: number[]; counts: number[] }[];
      assert.deepEqual(got.counts, want.counts, `${what}: residual counts`);
      got.edges.forEach((edge, i) => assert.ok(Math.abs(edge - want.edges[i]) < 1e-9, `${what}: residual edge ${i} ${edge} vs ${want.edges[i]}`));
      assert.ok((test.charts as { true: number[] }).true.length > 0, `${what}: the predicted-against-actual points of the sample`);
    } else {
      for (const curve of ['scores', 'roc', 'precision_recall_curve', 'auc_pr', 'probability_bins']) assert.deepEqual(test[curve], expected[curve], `${what}: ${curve}`);
    }
  }

  for (const index of [0, 1]) {
    it(`splits by time and by group in the source: the latest rows by a column, whole groups (${index === 0 ? 'DuckDB' : 'PostgreSQL'})`, async () => {
      const database = databases[index];
      // 40 shops by x2, and none where x2 is missing; x1 has about 30 rows per value, so the time boundary has ties.
      const query = 'SELECT x1, x2, grade, spend, CAST(FLOOR(x2 * 10) AS INTEGER) AS shop FROM customers';
      const columns = ['x1', 'x2', 'grade', 'spend', 'shop'];
      const registered = await call('POST', '/v1/datasets', { json: { name: 'shops', source: { connection: database.what.toLowerCase(), query } } });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      const train = (split: unknown) =>
        call('POST', '/v1/models/train', { json: { dataset_id: registered.body.dataset_id, target_column: 'spend', model_type: 'regressor', model_name: `shops ${database.what}`, split, outer_bags: 2 } });
      const versionOf = async (body: { model_id: string; version_id: string }) =>
        ((await call('GET', `/v1/models/versions/${body.model_id}`)).body as { version_id: string; parameters: Record<string, unknown> }[]).find((v) => v.version_id === body.version_id);

      const timed = await train({ time_column: 'x1' });
      assert.equal(timed.status, 200, JSON.stringify(timed.body));
      assert.equal(timed.body.execution, 'pushdown');
      const latest = data.map((row) => row[0] as number).sort((a, b) => b - a);
      const from = latest[Math.round(ROWS * 0.2) - 1];
      assert.equal(timed.body.n_test, latest.filter((x) => x >= from).length, 'every row from the boundary time on, and no other, is a test row');
      assert.ok(!timed.body.feature_importances.some((f: { feature: string }) => f.feature === 'x1'), 'the time column is no feature');
      const timedVersion = await versionOf(timed.body);
      assert.deepEqual([timedVersion?.parameters.split, timedVersion?.parameters.test_from, timedVersion?.parameters.n_test], [{ time_column: 'x1' }, from, timed.body.n_test]);

      const grouped = await train({ group_column: 'shop' });
      assert.equal(grouped.status, 200, JSON.stringify(grouped.body));
      const side = async (part: 'test' | 'train') => {
        const frame = await frameOf(database, splitRelation(database.dialect, query, await columnsOf(database, query), { testSize: 0.2, seed: 42, trainSample: 1, testSample: 1, by: { group: 'shop' } }, part), columns);
        return { rows: frame.nRows, shops: new Set(Array.from({ length: frame.nRows }, (_, r) => frame.value(r, 'shop'))) };
      };
      const [test, rest] = [await side('test'), await side('train')];
      assert.equal(test.rows + rest.rows, ROWS);
      assert.equal(grouped.body.n_test, test.rows, 'the metrics are over the test shops’ rows');
      assert.deepEqual([...test.shops].filter((shop) => rest.shops.has(shop)), [], 'no shop on both sides');
      assert.ok(rest.shops.has(null) && !test.shops.has(null), 'rows without a shop train');
      assert.ok(test.shops.size >= 3 && test.shops.size <= 16, `${test.shops.size} of 40 shops tested`);

      const refused = await train({ time_column: 'grade' });
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.match(refused.body.error.message, /^split\.time_column grade is of type \w+; a time split needs a column of numbers, dates or timestamps\.$/i);
      assert.deepEqual(refused.body.error.fields.map((f: { path: string }) => f.path), ['split.time_column']);
    });
  }

  for (const index of [0, 1]) {
    it(`splits by a timestamp column in the source at its boundary time, read once (${index === 0 ? 'DuckDB' : 'PostgreSQL'})`, async () => {
      const database = databases[index];
      const query = "SELECT x1, x2, spend, CAST(DATE '2024-01-01' + CAST(FLOOR(x1) AS INTEGER) AS TIMESTAMP) AS day FROM customers";
      const registered = await call('POST', '/v1/datasets', { json: { name: 'days', source: { connection: database.what.toLowerCase(), query } } });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      const trained = await call('POST', '/v1/models/train', {
        json: { dataset_id: registered.body.dataset_id, target_column: 'spend', model_type: 'regressor', model_name: `days ${database.what}`, split: { time_column: 'day' }, outer_bags: 2 },
      });
      assert.equal(trained.status, 200, JSON.stringify(trained.body));
      const days = data.map((row) => Math.floor(row[0] as number)).sort((a, b) => b - a);
      const from = days[Math.round(ROWS * 0.2) - 1];
      assert.equal(trained.body.n_test, days.filter((d) => d >= from).length, 'every row from the boundary day on, and no other, is a test row');
    });
  }

  for (const index of [0, 1]) {
    it(`scores a multiclass model of a numeric target on every test row as the engine reads its classes (${index === 0 ? 'DuckDB' : 'PostgreSQL'})`, async () => {
      const database = databases[index];
      // Decimals, which the drivers hand over as 1.0 or '1.0' and the engine reads as the numbers 1, 2, 3 and 4.5.
      const query = "SELECT x1, x2, spend, CASE grade WHEN 'a' THEN 1 WHEN 'b' THEN 2 WHEN 'c' THEN 3 WHEN 'd' THEN 4.5 END AS level FROM customers";
      const registered = await call('POST', '/v1/datasets', { json: { name: 'levels', source: { connection: database.what.toLowerCase(), query } } });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      const trained = await call('POST', '/v1/models/train', { json: { dataset_id: registered.body.dataset_id, target_column: 'level', model_name: `level ${database.what}` } });
      assert.equal(trained.status, 200, JSON.stringify(trained.body));
      assert.equal(trained.body.execution, 'pushdown');
      assert.deepEqual(trained.body.classes, ['1', '2', '3', '4.5']);
      const columns = ['x1', 'x2', 'spend', 'level'];
      const testFrame = await frameOf(database, splitRelation(database.dialect, query, await columnsOf(database, query), { testSize: 0.2, seed: 42, trainSample: 1, testSample: 1 }, 'test'), columns);
      const model = multiclassFromPayloads((await payloadOf(trained.body.version_id as string)).partitions, { target: 'level', partitionOn: null });
      const { per_class: _perClass, ...expected } = evaluateMulticlassModel(model, testFrame);
      const matrix = expected.confusion_matrix.matrix;
      assert.equal(trained.body.n_test, matrix.flat().reduce((s, v) => s + v, 0), 'every test row with a level is scored');
      assert.ok(trained.body.n_test > 0.95 * 0.2 * ROWS, `${trained.body.n_test} test rows`);
      for (const [metric, value] of Object.entries(expected)) {
        const got = (trained.body.test_metrics as Record<string, unknown>)[metric];
        if (typeof value === 'number') assert.ok(Math.abs((got as number) - value) < 1e-9, `${database.what}: ${metric} ${got} vs ${value}`);
        else assert.deepEqual(got, value, `${database.what}: ${metric}`);
      }
    });
  }

  for (const index of [0, 1]) {
    it(`predicts every row into a new table of the source, as the engine scores it (${index === 0 ? 'DuckDB' : 'PostgreSQL'})`, async () => {
      const database = databases[index];
      const datasetId = await register(database);
      const trained = await call('POST', '/v1/models/train', {
        json: { dataset_id: datasetId, target_column: 'churned', model_type: 'classifier', model_name: 'churn', drop_columns: ['spend'], partition_on: 'grade' },
      });
      assert.equal(trained.status, 200, JSON.stringify(trained.body));
      const partitions = (await call('GET', `/v1/models/partitions/${trained.body.version_id}`)).body.partitions as { partition_id: string }[];
      for (const { partition_id } of partitions) {
        const warnings = (await call('GET', `/v1/models/evaluation/${partition_id}`)).body.warnings as string[];
        assert.ok(warnings.some((w) => /from a sample of [\d,]+ test rows/.test(w)), `a partition's evaluation says it is a sample's: ${JSON.stringify(warnings)}`);
      }
      const predictInto = (json: Record<string, unknown>) => call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { dataset_id: datasetId, output_table: 'scored', explain: true, ...json } });
      const written = await predictInto({});
      assert.equal(written.status, 200, JSON.stringify(written.body));
      const features = ['x1', 'x2'];
      const model = await payloadModel(trained.body.version_id as string);
      const pairs = [...new Set([...model.partitions.values()].flatMap((p) => partitionPairs(p).map(pairName)))];
      assert.deepEqual(written.body, {
        version_id: trained.body.version_id,
        n: ROWS,
        output_table: 'scored',
        columns: [
          ...COLUMNS,
          'xm_prediction',
          'xm_probability',
          'xm_base_value',
          ...features.map((f) => `xm_contribution_${f}`),
          ...pairs.map((p) => `xm_interaction_${p}`),
          'xm_score',
        ],
      });
      assert.equal((await predictInto({})).status, 409, 'an existing table is not replaced unless asked');
      assert.equal((await predictInto({ replace: true, threshold: 0.3 })).status, 200);
      const rows = await database.rows('SELECT * FROM scored');
      assert.equal(rows.length, ROWS);
      const frame = new DataFrame(COLUMNS.map((name) => columnFromValues(name, rows.map((r) => r[name] as number | string | null))));
      const expected = predict(model, frame, { explain: true, threshold: 0.3 });
      rows.forEach((row, r) => {
        assert.ok(Math.abs(Number(row.xm_probability) - (expected.probabilities as Float64Array)[r]) < 1e-9, `row ${r}: probability`);
        assert.equal(Number(row.xm_prediction), expected.predictions[r], `row ${r}: prediction at threshold 0.3`);
        for (const f of features) assert.ok(Math.abs(Number(row[`xm_contribution_${f}`]) - (expected.contributions as Record<string, Float64Array>)[f][r]) < 1e-9, `row ${r}: ${f}`);
        for (const p of pairs) assert.ok(Math.abs(Number(row[`xm_interaction_${p}`]) - (expected.pairContributions as Record<string, Float64Array>)[p][r]) < 1e-9, `row ${r}: ${p}`);
      });
    });
  }

  for (const index of [0, 1]) {
    it(`fits the same model from the same rows in another order, and from a Parquet export of them (${index === 0 ? 'DuckDB' : 'PostgreSQL'})`, async () => {
      const database = databases[index];
      const parquet = join(dir, 'customers.parquet');
      // The same rows, last first; a DuckDB table's rows also as a Parquet file, read through a query.
      await database.write([
        'CREATE TABLE customers_reversed AS SELECT * FROM customers ORDER BY spend DESC, x1 DESC',
        ...(index === 0 ? [`COPY customers TO '${parquet}' (FORMAT parquet)`] : []),
      ]);
      const sources = [{ table: 'customers' }, { table: 'customers_reversed' }, ...(index === 0 ? [{ query: `SELECT * FROM read_parquet('${parquet}')` }] : [])];
      const fits = [];
      for (const source of sources) {
        const registered = await call('POST', '/v1/datasets', { json: { name: 'customers', source: { connection: database.what.toLowerCase(), ...source } } });
        assert.equal(registered.status, 200, JSON.stringify(registered.body));
        const trained = await call('POST', '/v1/models/train', {
          json: { dataset_id: registered.body.dataset_id, target_column: 'churned', model_type: 'classifier', model_name: 'order', drop_columns: ['spend'], outer_bags: 2 },
        });
        assert.equal(trained.status, 200, JSON.stringify(trained.body));
        assert.equal(trained.body.execution, 'pushdown');
        fits.push({ source, body: trained.body, model: await payloadModel(trained.body.version_id as string) });
      }
      const [first, ...others] = fits;
      for (const other of others) {
        assert.deepEqual(other.model, first.model, `${JSON.stringify(other.source)}: the same model as from ${JSON.stringify(first.source)}`);
        assert.equal(other.body.n_test, first.body.n_test);
        const [auc, otherAuc] = [first.body.test_metrics.roc_auc as number, other.body.test_metrics.roc_auc as number];
        assert.ok(Math.abs(auc - otherAuc) < 1e-9, `test AUC ${otherAuc} vs ${auc}`);
      }
    });
  }

  it('agrees with the in-memory fit of the same rows, and is reproducible', async () => {
    const datasetId = await register(databases[0]);
    const body = { dataset_id: datasetId, target_column: 'churned', model_type: 'classifier', drop_columns: ['spend'] };
    const first = await call('POST', '/v1/models/train', { json: { ...body, model_name: 'first', execution: 'pushdown' } });
    const again = await call('POST', '/v1/models/train', { json: { ...body, model_name: 'again', execution: 'pushdown' } });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(await payloadModel(again.body.version_id as string), await payloadModel(first.body.version_id as string), 'the same rows, seed and budget give the same model');
    // The database adds up the test rows in an order of its own: the metrics agree to the last few bits.
    for (const [metric, value] of Object.entries(first.body.test_metrics as Record<string, unknown>)) {
      const other = (again.body.test_metrics as Record<string, unknown>)[metric];
      if (typeof value === 'number') assert.ok(Math.abs(value - (other as number)) < 1e-12, `${metric} ${value} vs ${other}`);
      else assert.deepEqual(other, value, metric);
    }
    const sample = await call('POST', '/v1/models/train', { json: { ...body, model_name: 'in memory', execution: 'in_memory' } });
    assert.equal(sample.status, 422, 'over the budget the rows are not read into memory');
    assert.match(sample.body.detail, /--max-rows-in-memory 6000/);
    const uploaded = await call('POST', '/v1/models/train', {
      json: { ...body, dataset_id: undefined, model_name: 'uploaded', csv_content: [COLUMNS.join(','), ...data.map((r) => r.map((v) => v ?? '').join(','))].join('\n') },
    });
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
    const gap = Math.abs((first.body.test_metrics.roc_auc as number) - (uploaded.body.test_metrics.roc_auc as number));
    assert.ok(gap < 0.01, `test AUC ${first.body.test_metrics.roc_auc} in the source vs ${uploaded.body.test_metrics.roc_auc} in memory`);
  });

  it('refuses pushdown where it cannot fit, naming the field', async () => {
    const small = ['a,b', ...Array.from({ length: 60 }, (_, i) => `${i},${(i * 7) % 3 === 0 ? 1 : 0}`)].join('\n');
    const uploaded = await call('POST', '/v1/datasets?name=small', { body: small, headers: { 'content-type': 'text/csv' } });
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
    const refused = await call('POST', '/v1/models/train', { json: { dataset_id: uploaded.body.dataset_id, target_column: 'b', model_name: 'x', execution: 'pushdown' } });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.error.fields[0].path, 'execution');
    const datasetId = await register(databases[0]);
    const preprocessed = await call('POST', '/v1/models/train', {
      json: { dataset_id: datasetId, target_column: 'churned', model_name: 'x', execution: 'pushdown', preprocessor_version_id: 'p' },
    });
    assert.equal(preprocessed.status, 422);
    assert.equal(preprocessed.body.error.fields[0].path, 'preprocessor_version_id');
    const trained = await call('POST', '/v1/models/train', { json: { dataset_id: uploaded.body.dataset_id, target_column: 'b', model_name: 'x' } });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    const intoTable = await call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { dataset_id: uploaded.body.dataset_id, output_table: 'out' } });
    assert.equal(intoTable.status, 422, 'an uploaded dataset has no database to write into');
    assert.equal(intoTable.body.error.fields[0].path, 'output_table');
    const badName = await call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { dataset_id: datasetId, output_table: 'out; DROP TABLE customers' } });
    assert.equal(badName.status, 422);
  });

  it('trains as a job that reports its scans, and whose Cancel cancels the running statement', async () => {
    const { features } = (await call('GET', '/v1/health')).body;
    assert.ok(features.includes('pushdown') && features.includes('train_jobs'), `health features: ${features}`);
    const duckdb = await register(databases[0]);
    const started = await call('POST', '/v1/models/train/jobs', { json: { dataset_id: duckdb, target_column: 'churned', model_name: 'churn job', drop_columns: ['spend'] } });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const finished = await waitForJob(started.body.training_id, (status) => status.status === 'completed' || status.status === 'failed');
    assert.equal(finished.status, 'completed', JSON.stringify(finished));
    const versions = (await call('GET', `/v1/models/versions/${finished.model_id}`)).body;
    assert.deepEqual([versions[0].version_id, versions[0].execution], [finished.version_id, 'pushdown']);

    // A query slow to scan: its sample's scan is still running when the job is cancelled.
    const slow = await call('POST', '/v1/datasets', {
      json: { name: 'slow customers', source: { connection: 'postgresql', query: 'SELECT c.* FROM customers c WHERE (SELECT true FROM pg_sleep(CASE WHEN c.x1 < 10 THEN 0.001 ELSE 0 END))' } },
    });
    assert.equal(slow.status, 200, JSON.stringify(slow.body));
    const models = (await call('GET', `/v1/models/teams/${service.teamId}`)).body.length;
    const job = await call('POST', '/v1/models/train/jobs', { json: { dataset_id: slow.body.dataset_id, target_column: 'churned', model_name: 'cancelled job' } });
    const scanning = await waitForJob(job.body.training_id, (status) => /reading a sample of the training rows/.test(status.current_step ?? ''));
    assert.ok(scanning.progress >= 2 && scanning.progress < 45, `the first scan reports its share of the progress (${scanning.progress})`);
    const cancelled = await call('DELETE', `/v1/autotrain/trainings/${job.body.training_id}`);
    assert.equal(cancelled.body.status, 'cancelled');
    await waitFor(async () => (await databases[1].rows("SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%pg_sleep(CASE WHEN c.x1%' AND pid <> pg_backend_pid()"))[0].n === '0');
    assert.equal((await call('GET', `/v1/models/teams/${service.teamId}`)).body.length, models, 'a cancelled job stores no model');
    const jobs = await call('POST', '/v1/models/train/jobs', { json: { csv_content: 'x,y\n1,0\n2,1\n', target_column: 'y', model_name: 'inline' } });
    assert.deepEqual([jobs.status, jobs.body.error.fields[0].path], [422, 'csv_content']);
  });

  async function waitFor(done: () => Promise<boolean>): Promise<void> {
    for (let waited = 0; !(await done()); waited += 100) {
      if (waited > 60_000) throw new Error('gave up waiting');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function waitForJob(trainingId: string, until: (status: TrainingStatus) => boolean): Promise<TrainingStatus> {
    let status = {} as TrainingStatus;
    await waitFor(async () => until((status = (await call('GET', `/v1/autotrain/check_training_status?training_id=${trainingId}`)).body)));
    return status;
  }
});
