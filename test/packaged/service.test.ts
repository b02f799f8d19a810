// The service as a package ships it: `dist/cli.js serve` run from a .vsix unpacked outside the repository, so it
// finds only what the package carries (XMODELS_TEST_VSIX names the package; XMODELS_TEST_DUCKDB says whether it
// must carry DuckDB).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DuckDBInstance } from '@duckdb/node-api';
import { client, type Call } from '../unit/service/harness';

const VSIX = process.env.XMODELS_TEST_VSIX;
const CARRIES_DUCKDB = process.env.XMODELS_TEST_DUCKDB === '1';
const ROWS = 3_000;

/** The environment of a machine without this repository's node_modules. */
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_PATH' && !name.startsWith('XMODELS_')));

/** A DuckDB file whose `customers` table's churn depends on tenure and plan. */
async function warehouse(dir: string): Promise<string> {
  const file = join(dir, 'warehouse.duckdb');
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  await connection.run(`CREATE TABLE customers AS
    SELECT i AS customer_id, (i * 37) % 72 AS tenure, ['basic', 'plus', 'pro'][1 + i % 3] AS plan,
           CASE WHEN ((i * 37) % 72) < 12 + 10 * (i % 3) THEN 'yes' ELSE 'no' END AS churned
    FROM range(${ROWS}) t(i)`);
  connection.closeSync();
  instance.closeSync();
  return file;
}

/** Runs the unpacked package's `serve`; resolves with its first stdout line, or with its exit and stderr. */
function serve(cli: string, dataDir: string, args: string[]) {
  const child = spawn(process.execPath, [cli, 'serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir, ...args], { cwd: dataDir, env: cleanEnv() });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const started = new Promise<{ line?: string; code?: number | null; stderr: string }>((resolve) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve({ line, stderr }));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
  return { child, started };
}

describe(`the packaged service (${VSIX ?? 'no package given'})`, function () {
  this.timeout(120_000);
  let dir: string;
  let cli: string;

  before(function () {
    if (!VSIX) throw new Error('XMODELS_TEST_VSIX must name the .vsix to test (node scripts/test-packaged.mjs sets it).');
    dir = mkdtempSync(join(tmpdir(), 'xmodels-packaged-'));
    const unzip = spawnSync('python3', ['-m', 'zipfile', '-e', VSIX, join(dir, 'package')], { encoding: 'utf8' });
    assert.equal(unzip.status, 0, unzip.stderr);
    cli = join(dir, 'package', 'extension', 'dist', 'cli.js');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  if (CARRIES_DUCKDB) {
    it('trains a DuckDB table where it lives and writes its predictions back as a table', async () => {
      const file = await warehouse(dir);
      const { child, started } = serve(cli, mkdtempSync(join(dir, 'data-')), ['--connection', `lake=duckdb://${file}`, '--max-rows-in-memory', '1000']);
      try {
        const { line, stderr } = await started;
        assert.ok(line, `serve exited: ${stderr}`);
        const info = JSON.parse(line) as { url: string; api_key: string };
        const call: Call = client(info.url, info.api_key);
        const registered = await call('POST', '/v1/datasets', { json: { name: 'customers', source: { connection: 'lake', table: 'customers' } } });
        assert.equal(registered.status, 200, JSON.stringify(registered.body));
        assert.equal(registered.body.rows, ROWS);
        const trained = await call('POST', '/v1/models/train', { json: { dataset_id: registered.body.dataset_id, target_column: 'churned', model_name: 'churn', drop_columns: ['customer_id'] } });
        assert.equal(trained.status, 200, JSON.stringify(trained.body));
        assert.equal(trained.body.execution, 'pushdown', 'more rows than --max-rows-in-memory: trained in DuckDB');
        assert.ok(trained.body.test_metrics.roc_auc > 0.9, `test AUC ${trained.body.test_metrics.roc_auc}`);
        const predicted = await call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { dataset_id: registered.body.dataset_id, output_table: 'scored' } });
        assert.equal(predicted.status, 200, JSON.stringify(predicted.body));
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
      const connection = await instance.connect();
      const [[count]] = (await connection.runAndReadAll('SELECT count(*) FROM scored')).getRowsJS();
      connection.closeSync();
      instance.closeSync();
      assert.equal(Number(count), ROWS);
    });
  } else {
    it('refuses a DuckDB connection, naming the package it lacks, and starts with PostgreSQL only', async () => {
      const { child, started } = serve(cli, mkdtempSync(join(dir, 'data-')), ['--connection', `lake=duckdb://${join(dir, 'none.duckdb')}`]);
      const { line, code, stderr } = await started;
      if (line) child.kill('SIGTERM');
      assert.equal(line, undefined, 'serve must not start with a connection it cannot open');
      assert.notEqual(code, 0);
      assert.match(stderr, /@duckdb\/node-api/);
    });
  }
});
