// Service throughput and overhead: requests/s and p99 latency for list/get under 50 concurrent clients (against
// GET /v1/health in the same run), train latency through HTTP against the same training run in-process, and how
// long the request thread is held while the autotrain routes compute over a million rows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTrain } from '../../src/service/training/pipeline';
import { strikesCsv } from '../unit/service/fixtures';
import { client, DATASETS, removeDir, startService, type ServiceProcess } from '../unit/service/harness';
import { testCluster } from '../unit/service/postgresCluster';
import { load, loadClientNote, median, type LoadResult } from './httpLoad';

const CLIENTS = 50;
const LOAD_SECONDS = 5;
const WARMUP_SECONDS = 2;
const TRAIN_RUNS = 5;
const REPLICAS = 2;
const AUTOTRAIN_ROWS = 1_000_000;

const SMALL_CSV = 'x,label\n1,a\n2,b\n3,a\n4,b\n5,a\n6,b\n7,a\n8,b\n9,a\n10,b\n';

/** Health, list and get under CLIENTS concurrent clients spread over `services` (replicas of one database). */
async function measureReads(label: string, services: ServiceProcess[]): Promise<void> {
  const [first] = services;
  const call = client(first.url, first.apiKey);
  for (let i = 0; i < 20; i++) {
    const res = await call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: `m${i}`, csv_content: SMALL_CSV } });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
  const models = (await call('GET', `/v1/models/teams/${first.teamId}`)).body as { model_id: string }[];
  const urls = services.map((s) => s.url);
  const run = (path: string, seconds = LOAD_SECONDS) => load({ urls, path, apiKey: first.apiKey, connections: CLIENTS, seconds });
  await run('/v1/health', WARMUP_SECONDS);
  const health = await run('/v1/health');
  const list = await run(`/v1/models/teams/${first.teamId}`);
  const get = await run(`/v1/models/${models[0].model_id}`);
  const row = (name: string, r: LoadResult) =>
    console.log(`${name.padEnd(28)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  (${(r.rps / health.rps).toFixed(2)}x health req/s)`);
  console.log(`${label}, ${CLIENTS} concurrent clients for ${LOAD_SECONDS} s each (${loadClientNote}; target p99 < 20 ms):`);
  row('GET /v1/health (baseline)', health);
  row('GET /v1/models/teams/{id}', list);
  row('GET /v1/models/{id}', get);
}

/** The same reads spread over REPLICAS services sharing one database on a private PostgreSQL cluster. */
async function measurePostgresReplicas(): Promise<void> {
  let databaseUrl: string;
  try {
    databaseUrl = await (await testCluster()).createDatabase();
  } catch (error) {
    console.log(`PostgreSQL: skipped, no server to run on (${(error as Error).message})`);
    return;
  }
  const replicas: ServiceProcess[] = [];
  try {
    for (let i = 0; i < REPLICAS; i++) replicas.push(await startService({ database: databaseUrl }));
    await measureReads(`PostgreSQL, ${REPLICAS} replicas`, replicas);
  } finally {
    for (const replica of replicas) {
      await replica.stop();
      removeDir(replica.dataDir);
    }
  }
}

async function trainOverhead(): Promise<void> {
  const service = await startService();
  const call = client(service.url, service.apiKey);
  try {
    const flights = readFileSync(join(DATASETS, 'flights-20k.csv'), 'utf8');
    const upload = await call('POST', '/v1/datasets?name=flights', { body: flights, contentType: 'text/csv' });
    const datasetId = upload.body.dataset_id as string;
    const body = { target_column: 'delay', model_name: 'flights', dataset_id: datasetId, model_type: 'regressor' };
    const http: number[] = [];
    const direct: number[] = [];
    await call('POST', '/v1/models/train', { json: body });
    await runTrain({
      source: { path: join(DATASETS, 'flights-20k.csv'), label: 'flights' }, testSource: null, target: 'delay', modelType: 'regressor',
      partitionOn: null, dropColumns: [], method: 'boosted', params: {}, boost: {}, boostFeature: {}, testSize: 0.2, seed: 42, preprocessor: null, kind: 'train',
    });
    for (let i = 0; i < TRAIN_RUNS; i++) {
      let t = performance.now();
      const res = await call('POST', '/v1/models/train', { json: body });
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
      http.push(performance.now() - t);
      t = performance.now();
      await runTrain({
        kind: 'train', source: { path: join(DATASETS, 'flights-20k.csv'), label: 'flights' }, testSource: null, target: 'delay',
        modelType: 'regressor', partitionOn: null, dropColumns: [], method: 'boosted', params: {}, boost: {}, boostFeature: {}, testSize: 0.2, seed: 42,
        preprocessor: null,
      });
      direct.push(performance.now() - t);
    }
    const ratio = median(http) / median(direct);
    console.log(`train flights-20k (regressor, median of ${TRAIN_RUNS}): HTTP ${median(http).toFixed(0)} ms, in-process ${median(direct).toFixed(0)} ms, overhead ratio ${ratio.toFixed(2)}x (target < 1.2x)`);
  } finally {
    await service.stop();
    removeDir(service.dataDir);
  }
}

/**
 * Each autotrain route over AUTOTRAIN_ROWS rows while health checks run one after another: the longest wait between
 * two health answers is how long the request thread was held (the whole computation when the rows are read there).
 */
async function autotrainStalls(): Promise<void> {
  const service = await startService();
  const call = client(service.url, service.apiKey);
  try {
    const form = new FormData();
    form.append('file', new Blob([strikesCsv(AUTOTRAIN_ROWS)], { type: 'text/csv' }), 'strikes.csv');
    const summary = (await call('POST', '/v1/autotrain/summarize-dataset', { body: form })).body;
    const goal = { index: 0, question: 'How do speed and height relate?', visualization: 'scatter plot of Speed vs Height', rationale: '', columns: ['Speed', 'Height'] };
    const routes: [string, unknown][] = [
      ['generate_goals', { summary, n: 6 }],
      ['generate_labels', { summary }],
      ['generate_feature_engineering', { summary, n: 6 }],
      ['visualize', { summary, goal, library: 'plotly' }],
      ['insights', { summary, goal }],
    ];
    console.log(`autotrain over ${AUTOTRAIN_ROWS.toLocaleString('en')} rows, health checked one after another meanwhile (target: longest wait a small part of the request):`);
    for (const [route, req] of routes) {
      const started = performance.now();
      let answered = false;
      const work = call('POST', `/v1/autotrain/${route}`, { json: { req } }).then((res) => {
        answered = true;
        return res;
      });
      let last = started;
      let longestWait = 0;
      while (!answered) {
        await call('GET', '/v1/health');
        const now = performance.now();
        longestWait = Math.max(longestWait, now - last);
        last = now;
      }
      const res = await work;
      if (res.status !== 200) throw new Error(`${route}: ${JSON.stringify(res.body)}`);
      const total = performance.now() - started;
      console.log(`${`POST ${route}`.padEnd(38)} ${total.toFixed(0).padStart(6)} ms, longest wait between health answers ${longestWait.toFixed(0)} ms`);
    }
  } finally {
    await service.stop();
    removeDir(service.dataDir);
  }
}

async function main(): Promise<void> {
  const sqlite = await startService();
  try {
    await measureReads('SQLite', [sqlite]);
  } finally {
    await sqlite.stop();
    removeDir(sqlite.dataDir);
  }
  await measurePostgresReplicas();
  await trainOverhead();
  await autotrainStalls();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
