// A Parquet file larger than the in-memory budget trained by the local service, uploaded (the service stores a copy)
// against registered where it lies (POST /v1/datasets {source: {file}}): the time from the request to the trained
// model, the service's peak memory and what the data dir holds after, in the same run. BENCH_IN_PLACE_ROWS sets the
// rows (default 10M; the file is written once), the faster of two runs each.
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, removeDir, startService, type ServiceProcess } from '../unit/service/harness';
import { writeParquet } from '../unit/service/datasets/duckdbParquet';

const ROWS = Number(process.env.BENCH_IN_PLACE_ROWS ?? 10_000_000);
const RUNS = 2;

const CUSTOMERS = `
  SELECT i AS customer_id, (i * 37) % 72 AS tenure, ['basic', 'plus', 'pro'][1 + i % 3] AS plan,
         round(20 + ((i * 53) % 100) / 2.0, 2) AS monthly, hash(i) % 1000 AS usage,
         CASE WHEN ((i * 37) % 72) + 8 * (i % 3) - 12 * (hash(i) % 3) < 30 THEN 'yes' ELSE 'no' END AS churned
  FROM range(${ROWS}) t(i)`;

const peakMb = (service: ServiceProcess) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${service.child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

function bytesUnder(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

/** Registers the file (uploaded or in place), trains on it, and reports seconds, peak memory and the data dir's bytes. */
async function run(path: string, inPlace: boolean): Promise<{ seconds: number; peak: number; stored: number; auc: number }> {
  const service = await startService({ database: '', args: ['--upload-limit-mb', '100000'] });
  try {
    const call = client(service.url, service.apiKey);
    const started = performance.now();
    const registered = inPlace
      ? await call('POST', '/v1/datasets', { json: { source: { file: path } } })
      : await fetch(`${service.url}/v1/datasets?name=bench`, {
          method: 'POST',
          headers: { api_key: service.apiKey, 'content-type': 'application/vnd.apache.parquet' },
          body: createReadStream(path) as unknown as BodyInit,
          duplex: 'half',
        } as RequestInit).then(async (res) => ({ status: res.status, body: JSON.parse(await res.text()) }));
    if (registered.status !== 200) throw new Error(`registering answered ${registered.status}: ${JSON.stringify(registered.body)}`);
    const trained = await call('POST', '/v1/models/train', { json: { dataset_id: registered.body.dataset_id, target_column: 'churned', model_name: 'bench', drop_columns: ['customer_id'] } });
    if (trained.status !== 200) throw new Error(`train answered ${trained.status}: ${JSON.stringify(trained.body)}`);
    return { seconds: (performance.now() - started) / 1000, peak: peakMb(service), stored: bytesUnder(join(service.dataDir, 'datasets')), auc: trained.body.test_metrics.roc_auc };
  } finally {
    await service.stop();
    removeDir(service.dataDir);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'xmodels-in-place-bench-'));
  try {
    const path = await writeParquet(CUSTOMERS, join(dir, 'customers.parquet'));
    const mb = statSync(path).size / 1e6;
    // Alternated, the faster of RUNS each: the machine may be busy with other work.
    const runs: { uploaded: Awaited<ReturnType<typeof run>>[]; inPlace: Awaited<ReturnType<typeof run>>[] } = { uploaded: [], inPlace: [] };
    for (let i = 0; i < RUNS; i++) {
      runs.inPlace.push(await run(path, true));
      runs.uploaded.push(await run(path, false));
    }
    const fastest = (list: Awaited<ReturnType<typeof run>>[]) => list.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const uploaded = fastest(runs.uploaded);
    const inPlace = fastest(runs.inPlace);
    const line = (what: string, r: typeof uploaded) =>
      `  ${what}: ${r.seconds.toFixed(2)} s to a trained model, service peak ${r.peak.toFixed(0)} MB, datasets folder ${(r.stored / 1e6).toFixed(1)} MB, test AUC ${r.auc.toFixed(5)}`;
    console.log(`Parquet file of ${ROWS} rows (${mb.toFixed(1)} MB), over the in-memory budget, trained where it lies:`);
    console.log(line('uploaded', uploaded));
    console.log(line('in place', inPlace));
    console.log(`  in place takes ${(inPlace.seconds / uploaded.seconds).toFixed(2)}x the upload's time and stores ${(inPlace.stored / uploaded.stored).toFixed(3)}x its bytes`);
  } finally {
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
