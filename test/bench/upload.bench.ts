// Two 200 MB CSVs uploaded to the service on loopback until each is a dataset ready to train (parsed into its stored
// frame), against pandas' read_csv of the same file in the same run (its import not counted), the best of RUNS each:
// 2.3M rows × 13 numeric columns (the data bench's upload), and 2M rows of mixed columns (ids, dates, categories,
// text, numbers, booleans, some missing). BENCH_UPLOAD_ROWS scales both.
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeDir, startService } from '../unit/service/harness';
import { numericCsv } from './numericCsv';

const SCALE = Number(process.env.BENCH_UPLOAD_ROWS ?? 2_000_000) / 2_000_000;

const CITIES = ['Seattle', 'Portland', 'San Francisco', 'Los Angeles', 'New York', 'Chicago', 'Houston', 'Phoenix'];
const PLANS = ['basic', 'plus', 'pro', 'enterprise'];

/** Customers as an export from a database writes them: mixed types, about 100 bytes a row, deterministic. */
function mixedCsv(rows: number): Buffer {
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const parts = ['customer_id,signup_date,city,plan,monthly,usage_gb,tenure_months,support_calls,satisfaction,discount,active,churned\n'];
  for (let i = 0; i < rows; i++) {
    const day = new Date(Date.UTC(2015, 0, 1) + Math.floor(random() * 3000) * 86_400_000).toISOString().slice(0, 10);
    const monthly = (20 + random() * 80).toFixed(2);
    const usage = random() < 0.03 ? '' : (random() * 500).toFixed(1);
    parts.push(
      `C${String(i).padStart(8, '0')},${day},${CITIES[Math.floor(random() * CITIES.length)]},${PLANS[Math.floor(random() * PLANS.length)]},${monthly},${usage},` +
        `${Math.floor(random() * 120)},${Math.floor(random() * 10)},${(1 + random() * 4).toFixed(1)},${random() < 0.2 ? '0.15' : '0'},${random() < 0.8 ? 'true' : 'false'},${random() < 0.27 ? 'Yes' : 'No'}\n`,
    );
  }
  return Buffer.from(parts.join(''));
}
const RUNS = 3;

/** Debian's python3 has pandas (python3-pandas); another python3 first on PATH may not. */
const PYTHON = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import pandas']).status === 0);

function pandasSeconds(path: string): number {
  if (!PYTHON) throw new Error('No python3 with pandas: install python3-pandas.');
  const script = 'import sys, time, pandas\nt = time.perf_counter()\npandas.read_csv(sys.argv[1])\nprint(time.perf_counter() - t)';
  const r = spawnSync(PYTHON, ['-c', script, path], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pandas failed: ${r.stderr}`);
  return Number(r.stdout.trim());
}

async function uploadSeconds(path: string): Promise<number> {
  const service = await startService();
  try {
    const started = performance.now();
    const res = await fetch(`${service.url}/v1/datasets?name=bench`, {
      method: 'POST',
      headers: { api_key: service.apiKey, 'content-type': 'text/csv' },
      body: createReadStream(path) as unknown as BodyInit,
      duplex: 'half',
    } as RequestInit);
    const body = await res.text();
    if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${body}`);
    return (performance.now() - started) / 1000;
  } finally {
    await service.stop();
    removeDir(service.dataDir);
  }
}

async function compare(what: string, path: string, rows: number): Promise<void> {
  const best = async (run: () => number | Promise<number>) => {
    let fastest = Infinity;
    for (let i = 0; i < RUNS; i++) fastest = Math.min(fastest, await run());
    return fastest;
  };
  const pandas = await best(() => pandasSeconds(path));
  const upload = await best(() => uploadSeconds(path));
  const mb = statSync(path).size / 1e6;
  console.log(`${what}: ${mb.toFixed(0)} MB, ${rows} rows: pandas read_csv ${pandas.toFixed(2)} s; upload until ready to train ${upload.toFixed(2)} s = ${(upload / pandas).toFixed(2)}x pandas`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'xmodels-upload-bench-'));
  try {
    const numericRows = Math.round(2_300_000 * SCALE);
    const mixedRows = Math.round(2_000_000 * SCALE);
    const numeric = join(dir, 'numeric.csv');
    writeFileSync(numeric, numericCsv(numericRows));
    await compare('numeric CSV', numeric, numericRows);
    rmSync(numeric);
    const mixed = join(dir, 'mixed.csv');
    writeFileSync(mixed, mixedCsv(mixedRows));
    await compare('mixed CSV', mixed, mixedRows);
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
