// Data where it lives: for tables of 1M, 5M and 20M generated customers (12 columns) in the private PostgreSQL cluster, the
// time of one plain `SELECT grade, count(*) … GROUP BY grade` scan (the yardstick of the machine and the table's
// size), the pushdown fit through the API, and where the rows fit the in-memory budget the in-memory fit of the same
// table; each fit on a fresh service, with its peak memory (VmHWM, worker threads included) and test AUC, and the
// pushdown model's predictions of every row written back as a table.
// Then a Parquet file of the same customers (BENCH_PARQUET_ROWS=10000000) is uploaded and trained (more rows than the
// budget: where the file lies, by the service's own DuckDB), with the upload's and the fit's time and the peak memory
// (BENCH_PARQUET_ROWS=0 leaves it out).
// Sizes: BENCH_SOURCE_ROWS=1000000,5000000,20000000; in-memory fits up to BENCH_IN_MEMORY_ROWS=5000000 rows.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { client, removeDir, startService } from '../unit/service/harness';
import { testCluster } from '../unit/service/postgresCluster';
import { writeParquet } from '../unit/service/datasets/duckdbParquet';
import { customersSql, duckdbSeries, postgresSeries } from '../unit/service/pushdown/generatedCustomers';

const SIZES = (process.env.BENCH_SOURCE_ROWS ?? '1000000,5000000,20000000').split(',').filter(Boolean).map(Number);
const IN_MEMORY_ROWS = Number(process.env.BENCH_IN_MEMORY_ROWS ?? 5_000_000);
/** The pushdown fits' budget: the default of `serve --max-rows-in-memory`. */
const PUSHDOWN_BUDGET = 2_000_000;
const PARQUET_ROWS = Number(process.env.BENCH_PARQUET_ROWS ?? 10_000_000);

interface Fit {
  seconds: number;
  peakMb: number;
  auc: number;
  execution: string;
  /** Seconds to predict every row of the table into a new table (pushdown fits only). */
  predictSeconds?: number;
}

async function fit(url: string, table: string, execution: 'pushdown' | 'in_memory', budget: number): Promise<Fit> {
  const service = await startService({ args: ['--connection', `bench=${url}`, '--max-rows-in-memory', String(budget)] });
  try {
    const call = client(service.url, service.apiKey);
    const registered = await call('POST', '/v1/datasets', { json: { name: table, source: { connection: 'bench', table } } });
    if (registered.status !== 200) throw new Error(JSON.stringify(registered.body));
    const started = performance.now();
    const trained = await call('POST', '/v1/models/train', {
      json: { dataset_id: registered.body.dataset_id, target_column: 'churned', model_type: 'classifier', model_name: table, drop_columns: ['id'], execution },
    });
    if (trained.status !== 200) throw new Error(JSON.stringify(trained.body));
    const fitted: Fit = {
      seconds: (performance.now() - started) / 1000,
      peakMb: peakMb(service.child.pid),
      auc: trained.body.test_metrics.roc_auc as number,
      execution: trained.body.execution as string,
    };
    if (execution !== 'pushdown') return fitted;
    const predictStarted = performance.now();
    const predicted = await call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, {
      json: { dataset_id: registered.body.dataset_id, output_table: `${table}_scored`, replace: true },
    });
    if (predicted.status !== 200) throw new Error(JSON.stringify(predicted.body));
    return { ...fitted, predictSeconds: (performance.now() - predictStarted) / 1000 };
  } finally {
    await service.stop();
    removeDir(service.dataDir);
  }
}

/** A process's peak resident memory (VmHWM, its threads included). */
const peakMb = (pid: number | undefined) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

const describe = (f: Fit) => `${f.seconds.toFixed(1)} s, peak ${f.peakMb.toFixed(0)} MB, test AUC ${f.auc.toFixed(4)}`;

async function main(): Promise<void> {
  const url = await (await testCluster()).createDatabase();
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    for (const rows of SIZES) {
      const table = `customers_${rows}`;
      let started = performance.now();
      await pg.query(`CREATE TABLE ${table} AS ${customersSql(postgresSeries(rows), 7)}`);
      await pg.query(`ANALYZE ${table}`);
      const made = (performance.now() - started) / 1000;
      started = performance.now();
      await pg.query(`SELECT grade, count(*) FROM ${table} GROUP BY grade`);
      const scan = (performance.now() - started) / 1000;
      const pushdown = await fit(url, table, 'pushdown', PUSHDOWN_BUDGET);
      console.log(`${rows} rows (made in ${made.toFixed(1)} s): one GROUP BY scan ${scan.toFixed(2)} s`);
      console.log(`  pushdown  ${describe(pushdown)}: ${(pushdown.seconds / scan).toFixed(1)}x the scan`);
      console.log(`  predict every row into a new table: ${pushdown.predictSeconds?.toFixed(1)} s, ${((pushdown.predictSeconds ?? 0) / scan).toFixed(1)}x the scan`);
      if (rows <= IN_MEMORY_ROWS) {
        const inMemory = await fit(url, table, 'in_memory', rows);
        console.log(`  in memory ${describe(inMemory)}: pushdown takes ${(pushdown.seconds / inMemory.seconds).toFixed(2)}x its time and ${(pushdown.peakMb / inMemory.peakMb).toFixed(2)}x its memory`);
      } else {
        console.log(`  in memory: not run above ${IN_MEMORY_ROWS} rows (BENCH_IN_MEMORY_ROWS)`);
      }
      await pg.query(`DROP TABLE ${table}, ${table}_scored`);
    }
  } finally {
    await pg.end();
  }
  if (PARQUET_ROWS > 0) await parquetUpload(PARQUET_ROWS);
}

/** Uploads a Parquet file of `rows` customers to a service with the default budget and trains it. */
async function parquetUpload(rows: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'xmodels-bench-parquet-'));
  const service = await startService({ args: ['--upload-limit-mb', '4096'] });
  try {
    let started = performance.now();
    const file = await writeParquet(customersSql(duckdbSeries(rows), 7), join(dir, 'customers.parquet'));
    const made = (performance.now() - started) / 1000;
    const call = client(service.url, service.apiKey);
    started = performance.now();
    const uploaded = await call('POST', '/v1/datasets?name=customers', { body: readFileSync(file), contentType: 'application/vnd.apache.parquet' });
    if (uploaded.status !== 200) throw new Error(JSON.stringify(uploaded.body));
    const upload = (performance.now() - started) / 1000;
    started = performance.now();
    const trained = await call('POST', '/v1/models/train', {
      json: { dataset_id: uploaded.body.dataset_id, target_column: 'churned', model_type: 'classifier', model_name: 'customers', drop_columns: ['id'] },
    });
    if (trained.status !== 200) throw new Error(JSON.stringify(trained.body));
    const fitted = { seconds: (performance.now() - started) / 1000, peakMb: peakMb(service.child.pid), auc: trained.body.test_metrics.roc_auc as number, execution: trained.body.execution as string };
    console.log(`Parquet upload of ${rows} rows (${(statSync(file).size / 1e6).toFixed(0)} MB, made in ${made.toFixed(1)} s): uploaded in ${upload.toFixed(1)} s`);
    console.log(`  ${fitted.execution} ${describe(fitted)}`);
  } finally {
    await service.stop();
    removeDir(service.dataDir);
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
