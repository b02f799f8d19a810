import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbSource } from '../../../../src/service/sources/duckdbSource';
import { PostgresSource } from '../../../../src/service/sources/postgresSource';
import { countSql, readRowsSql, relationSql } from '../../../../src/service/sources/relation';
import { rowHash } from '../../../../src/service/sources/rowSplit';
import { SourceError, type SqlSource } from '../../../../src/service/sources/source';
import { testCluster } from '../postgresCluster';
import { churnRows, duckdbWithCustomers, postgresWithCustomers } from './sourceDatabases';

const ROWS = 40;

async function collect(source: SqlSource, sql: string, batchRows: number): Promise<unknown[][][]> {
  const batches: unknown[][][] = [];
  for await (const batch of source.stream(sql, [], { batchRows })) batches.push(batch);
  return batches;
}

async function failure(promise: Promise<unknown>): Promise<SourceError> {
  const error = await promise.then(
    () => assert.fail('expected a SourceError'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof SourceError, String(error));
  return error;
}

/** The same behaviour from every engine; `slowQuery` runs until cancelled. */
const engines: { name: string; open: (dir: string) => Promise<SqlSource>; slowQuery: string }[] = [
  { name: 'PostgreSQL', open: async () => new PostgresSource(await postgresWithCustomers(ROWS)), slowQuery: 'SELECT pg_sleep(60) AS slept' },
  {
    name: 'DuckDB',
    open: async (dir) => new DuckDbSource((await duckdbWithCustomers(dir, ROWS)).file),
    slowQuery: 'SELECT count(*) AS n FROM range(100000000000) a',
  },
];

for (const engine of engines) {
  describe(`service: the ${engine.name} SQL source`, function () {
    this.timeout(60_000);
    let dir: string;
    let source: SqlSource;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'xmodels-sources-'));
      source = await engine.open(dir);
    });
    after(async () => {
      await source.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('lists its tables, describes columns with how each is read, and counts rows', async () => {
      const tables = await source.tables();
      assert.deepEqual(
        tables.map((t) => t.table),
        ['customers', 'tagged'],
      );
      const relation = relationSql(source.dialect, { table: 'customers' });
      const columns = await source.describe(relation);
      assert.deepEqual(
        columns.map((c) => [c.name, c.readAs]),
        [
          ['customer_id', 'as-is'],
          ['tenure', 'as-is'],
          ['plan', 'as-is'],
          ['monthly', 'text'],
          ['region', 'as-is'],
          ['churned', 'as-is'],
        ].map(([name, readAs]) => [name, engine.name === 'PostgreSQL' && readAs === 'as-is' && name !== 'tenure' ? 'text' : readAs]),
      );
      const tagged = await source.describe(relationSql(source.dialect, { table: 'tagged' }));
      assert.deepEqual(
        tagged.map((c) => c.readAs),
        ['as-is', null, null],
        'lists and JSON cannot be read',
      );
      assert.equal(Number((await source.query(countSql(relation)))[0].n), ROWS);
    });

    it('streams rows in batches, ordered by every column, each value as text or as the driver gives it', async () => {
      const relation = relationSql(source.dialect, { table: 'customers' });
      const columns = await source.describe(relation);
      const batches = await collect(source, readRowsSql(source.dialect, relation, columns, 1000), 15);
      assert.deepEqual(
        batches.map((b) => b.length),
        [15, 15, 10],
      );
      const rows = batches.flat();
      const expected = churnRows(ROWS).sort((a, b) => (a[0] < b[0] ? -1 : 1));
      assert.deepEqual(
        rows.map((r) => r[0]),
        expected.map((r) => r[0]),
      );
      assert.equal(rows[0][1], Number(expected[0][1]), 'an integer comes as a number');
      assert.equal(Number(rows[0][3]), Number(expected[0][3]), 'a decimal comes as its text');
      assert.equal(typeof rows[0][3], 'string');
      assert.equal((await collect(source, readRowsSql(source.dialect, relation, columns, 7), 100)).flat().length, 7, 'the limit holds');
    });

    it('runs queries read-only and as one SELECT only', async () => {
      const error = await failure(source.query('DELETE FROM customers'));
      assert.equal(error.failure, 'query');
      assert.equal(Number((await source.query('SELECT count(*) AS n FROM customers'))[0].n), ROWS, 'nothing was deleted');
      assert.equal((await failure(source.query('SELECT * FROM missing_table'))).failure, 'not-found');
    });

    it('cancels the running statement when the signal aborts', async () => {
      const controller = new AbortController();
      const running = source.query(engine.slowQuery, [], { signal: controller.signal });
      setTimeout(() => controller.abort(), 300);
      assert.equal((await failure(running)).failure, 'cancelled');
      assert.equal(Number((await source.query('SELECT 1 AS one'))[0].one), 1, 'the source still answers');
    });

    it('hashes rows alike on every run, differently per seed, never below 0, NULLs too (for splits computed in SQL)', async () => {
      const columns = await source.describe(relationSql(source.dialect, { table: 'customers' }));
      const hashes = async (seed: number) => {
        const sql = `SELECT ${rowHash(source.dialect, columns, seed)} AS h FROM customers AS q ORDER BY customer_id`;
        return (await source.query(sql)).map((r) => BigInt(String(r.h)));
      };
      const first = await hashes(42);
      assert.deepEqual(await hashes(42), first);
      assert.notDeepEqual(await hashes(7), first);
      assert.equal(new Set(first).size, ROWS, 'every row its own hash');
      assert.ok(first.every((h) => h >= 0n && h < 2n ** 63n));
      const plan = columns.find((c) => c.name === 'plan') as { name: string; type: string };
      const [{ h: withNull }] = await source.query(`SELECT ${source.dialect.hash([{ sql: 'NULL', type: plan.type }, { sql: "'basic'", type: plan.type }], 42)} AS h`);
      const [{ h: swapped }] = await source.query(`SELECT ${source.dialect.hash([{ sql: "'basic'", type: plan.type }, { sql: 'NULL', type: plan.type }], 42)} AS h`);
      assert.notEqual(withNull, null, 'a NULL value hashes too');
      assert.notEqual(String(withNull), String(swapped), 'the same values in other columns hash differently');
    });
  });
}

describe('service: SQL sources that cannot be reached', function () {
  this.timeout(60_000);

  it('names what failed without the password', async () => {
    const cluster = await testCluster();
    const wrong = new PostgresSource(`postgres://${cluster.user}:not-the-password@${cluster.host}:${cluster.port}/postgres`);
    const login = await failure(wrong.test());
    assert.equal(login.failure, 'connect');
    assert.match(login.message, /refused the login of user/);
    assert.ok(!login.message.includes('not-the-password'));
    await wrong.close();
    const missing = new PostgresSource(`postgres://${cluster.user}:${cluster.password}@${cluster.host}:${cluster.port}/no_such_db`);
    const database = await failure(missing.test());
    assert.match(database.message, /"no_such_db" does not exist/);
    assert.ok(!database.message.includes(cluster.password));
    await missing.close();
    const file = new DuckDbSource(join(tmpdir(), 'xmodels-no-such-dir', 'none.duckdb'));
    assert.match((await failure(file.test())).message, /none\.duckdb does not exist/);
  });

  it('reads Parquet files (globs too) through an in-memory DuckDB', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xmodels-sources-'));
    try {
      await duckdbWithCustomers(dir, ROWS);
      const memory = new DuckDbSource(':memory:');
      const rows = await memory.query(`SELECT count(*) AS n FROM read_parquet('${join(dir, '*.parquet')}')`);
      assert.equal(Number(rows[0].n), ROWS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
