// Data path (CSV parse speed is csv.bench.ts): the breakdown of one HTTP train of a
// 400k × 12 upload (read, split, fit, evaluate, store; the yardsticks are scored while the fit's threads work) against the engine-only fit of the same split, with the HTTP
// refit of all features and predict with contributions; list/get p99 at 50 clients with and without a concurrent big
// train; and, each on a fresh service, upload + train time and the service's peak memory (VmHWM, worker threads
// included) for 1M rows and a 200 MB CSV (about 2.4M rows). The label is a noisy threshold of two features, so
// boosting stops early as on real data. Sizes: BENCH_ROWS=400000,1000000,2400000 (the first is the breakdown's);
// BENCH_HUGE=1 adds 5M rows (about 420 MB; several minutes on two cores, hence opt-in). The breakdown also prints CPU
// times (the service's from /proc, worker threads included), which vary less than wall times on a shared machine.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { evaluateBaselines, evaluateModel, fittedSubject, fitModel, fitModelParallel, predict } from '../../src/engine';
import { loadFrameSync } from '../../src/service/datasetFiles/frameFile';
import { loadHealthSync } from '../../src/service/datasetFiles/healthFile';
import { splitFrame } from '../../src/service/training/pipeline';
import { client, removeDir, startService, type Call, type ServiceProcess } from '../unit/service/harness';
import { load, loadClientNote, median } from './httpLoad';
import { FEATURES, numericCsv } from './numericCsv';

const [TRAIN_ROWS, ...BIG_ROWS] = [...(process.env.BENCH_ROWS ?? '400000,1000000,2400000').split(','), ...(process.env.BENCH_HUGE ? ['5000000'] : [])].map(Number);

const time = <T>(fn: () => T): [T, number] => {
  const t = performance.now();
  const value = fn();
  return [value, performance.now() - t];
};

/** p99 latency of `path` under 50 concurrent clients for `seconds` (wrk when installed, as the service bench). */
async function p99(service: ServiceProcess, path: string, seconds = 1): Promise<number> {
  return (await load({ urls: [service.url], path, apiKey: service.apiKey, connections: 50, seconds })).p99;
}

/** CPU time the service process (worker threads included) has used so far, from /proc (10 ms resolution). */
function serviceCpuMs(service: ServiceProcess): number {
  const fields = readFileSync(`/proc/${service.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** CPU time this process (worker threads included) has used so far. */
function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function peakMemoryMb(service: ServiceProcess): number {
  const status = readFileSync(`/proc/${service.child.pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

async function upload(call: Call, bytes: Buffer, name: string): Promise<string> {
  const res = await call('POST', `/v1/datasets?name=${name}`, { body: bytes, contentType: 'text/csv' });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.dataset_id as string;
}

async function train(call: Call, datasetId: string, params: Record<string, number> = {}): Promise<{ ms: number; versionId: string }> {
  const t = performance.now();
  const res = await call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'bench', dataset_id: datasetId, model_type: 'classifier', ...params } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { ms: performance.now() - t, versionId: res.body.version_id as string };
}

async function timed(call: Call, path: string, json: unknown): Promise<number> {
  const t = performance.now();
  const res = await call('POST', path, { json });
  if (res.status !== 200) throw new Error(`${path}: ${JSON.stringify(res.body).slice(0, 500)}`);
  return performance.now() - t;
}

const REPEATS = 3;

/** One empty series of measurements per name. */
function emptySeries<K extends string>(names: readonly K[]): Record<K, number[]> {
  return Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
}

function medians<K extends string>(series: Record<K, number[]>): Record<K, number> {
  return Object.fromEntries(Object.entries<number[]>(series).map(([name, values]) => [name, median(values)])) as Record<K, number>;
}

/**
 * HTTP trains against the same steps run in this process on the service's stored frame, interleaved (HTTP, then
 * in-process) REPEATS times so a change in the machine's load hits both; medians.
 */
async function breakdown(service: ServiceProcess, call: Call, datasetId: string): Promise<void> {
  const csvPath = `${service.dataDir}/datasets/${datasetId}.csv`;
  const options = { target: 'label', modelType: 'classifier' as const, partitionOn: null, dropColumns: [], params: {} };
  const runs = emptySeries(['http', 'httpCpu', 'httpNoPairs', 'read', 'split', 'fit', 'fitCpu', 'evaluate', 'yardsticks', 'health']);
  await train(call, datasetId);
  let versionId = '';
  for (let i = 0; i < REPEATS; i++) {
    const serviceCpu = serviceCpuMs(service);
    const http = await train(call, datasetId);
    runs.httpCpu.push(serviceCpuMs(service) - serviceCpu);
    versionId = http.versionId;
    runs.http.push(http.ms);
    runs.httpNoPairs.push((await train(call, datasetId, { interactions: 0 })).ms);
    const [frame, readMs] = time(() => loadFrameSync(csvPath));
    const [{ train: trainRows, test }, splitMs] = time(() => splitFrame(frame, 'label', 0.2, 42));
    const t = performance.now();
    const cpu = ownCpuMs();
    const model = await fitModelParallel(trainRows, options);
    runs.fit.push(performance.now() - t);
    runs.fitCpu.push(ownCpuMs() - cpu);
    const [, evaluateMs] = time(() => [evaluateModel(model, trainRows), evaluateModel(model, test)]);
    runs.yardsticks.push(time(() => evaluateBaselines(fittedSubject(model), trainRows, test))[1]);
    const [, healthMs] = time(() => loadHealthSync(csvPath, () => frame));
    runs.read.push(readMs);
    runs.split.push(splitMs);
    runs.evaluate.push(evaluateMs);
    runs.health.push(healthMs);
  }
  const m = medians(runs);
  const frame = loadFrameSync(csvPath);
  const { train: trainRows } = splitFrame(frame, 'label', 0.2, 42);
  const oneThreadCpu = ownCpuMs();
  const [model, oneThreadMs] = time(() => fitModel(trainRows, options));
  const oneThreadCpuMs = ownCpuMs() - oneThreadCpu;
  const rest = m.http - m.read - m.split - m.fit - m.evaluate - m.health;
  console.log(`HTTP train with pair terms ${m.http.toFixed(0)} ms, without (interactions 0) ${m.httpNoPairs.toFixed(0)} ms: ${(m.http / m.httpNoPairs).toFixed(2)}x (target ≤ 1.3x)`);
  console.log(
    `HTTP train ${TRAIN_ROWS} × ${FEATURES} (medians of ${REPEATS}): ${m.http.toFixed(0)} ms = read frame ${m.read.toFixed(0)} + split ${m.split.toFixed(0)} + fit ${m.fit.toFixed(0)} + evaluate ${m.evaluate.toFixed(0)} (yardsticks ${m.yardsticks.toFixed(0)} ms, scored during the fit) + cached health ${m.health.toFixed(0)} + store/HTTP ${rest.toFixed(0)} ms; ` +
      `HTTP / engine-only fit on ${availableParallelism()} threads ${(m.http / m.fit).toFixed(2)}x (target < 1.3x; ≤ 2.5 s on a quiet machine); engine fit on 1 thread ${oneThreadMs.toFixed(0)} ms. ` +
      `CPU time (steadier than wall time on a busy machine): service per HTTP train ${m.httpCpu.toFixed(0)} ms, engine fit on ${availableParallelism()} threads ${m.fitCpu.toFixed(0)} ms, on 1 thread ${oneThreadCpuMs.toFixed(0)} ms`,
  );
  const refitMs = await timed(call, `/v1/models/versions/${versionId}/refit`, { dataset_id: datasetId, target_column: 'label' });
  // As the trains: a first predict (each thread compiles its code on its first one), then medians of REPEATS.
  const predictPath = `/v1/models/versions/${versionId}/predict`;
  const firstPredictMs = await timed(call, predictPath, { dataset_id: datasetId, explain: true });
  const predictRuns = emptySeries(['http', 'cpu', 'engine']);
  for (let i = 0; i < REPEATS; i++) {
    const predictCpu = serviceCpuMs(service);
    predictRuns.http.push(await timed(call, predictPath, { dataset_id: datasetId, explain: true }));
    predictRuns.cpu.push(serviceCpuMs(service) - predictCpu);
    predictRuns.engine.push(time(() => predict(model, frame, { explain: true }))[1]);
  }
  const { http: predictMs, cpu: predictCpuMs, engine: enginePredictMs } = medians(predictRuns);
  console.log(
    `HTTP refit of all features ${refitMs.toFixed(0)} ms (target ≤ 1 s), ${(refitMs / m.fit).toFixed(2)}x the engine fit; ` +
      `HTTP predict of ${TRAIN_ROWS} rows with contributions (medians of ${REPEATS} after a first one of ${firstPredictMs.toFixed(0)} ms) ${predictMs.toFixed(0)} ms (target ≤ 1.5 s; includes parsing the ${TRAIN_ROWS * (FEATURES + 2)}-number body here), ${(predictMs / enginePredictMs).toFixed(2)}x the engine's ${enginePredictMs.toFixed(0)} ms; service CPU for the predict ${predictCpuMs.toFixed(0)} ms`,
  );
}

async function latency(service: ServiceProcess, call: Call, datasetId: string): Promise<void> {
  const models = (await call('GET', `/v1/models/teams/${service.teamId}`)).body as { model_id: string }[];
  const listPath = `/v1/models/teams/${service.teamId}`;
  const getPath = `/v1/models/${models[0].model_id}`;
  // Warm-up (JIT, prepared statements), then 3-second windows while idle.
  await p99(service, listPath);
  await p99(service, getPath);
  const quiet = { list: await p99(service, listPath, 3), get: await p99(service, getPath, 3) };
  // One-second windows, so both fall inside the train.
  const training = train(call, datasetId);
  const busy = { list: await p99(service, listPath), get: await p99(service, getPath) };
  await training;
  const fmt = (r: typeof quiet) => `list ${r.list.toFixed(1)} ms, get ${r.get.toFixed(1)} ms`;
  console.log(`p99 at 50 clients (${loadClientNote}), idle: ${fmt(quiet)}; during a ${TRAIN_ROWS}-row train: ${fmt(busy)} (target list/get < 20 ms)`);
}

/** Upload and train on a fresh service, so its peak memory is this size's alone. */
async function bigCase(rows: number, trainMs400k: number): Promise<void> {
  const big = numericCsv(rows);
  const service = await startService();
  const call = client(service.url, service.apiKey);
  try {
    const t = performance.now();
    const id = await upload(call, big, `rows-${rows}`);
    const uploadMs = performance.now() - t;
    const trained = await train(call, id);
    console.log(
      `${rows} rows (${(big.length / 1e6).toFixed(0)} MB): upload+parse ${(uploadMs / 1000).toFixed(1)} s, HTTP train ${(trained.ms / 1000).toFixed(1)} s ` +
        `(${(trained.ms / trainMs400k).toFixed(1)}x the ${TRAIN_ROWS}-row train), service peak RSS ${peakMemoryMb(service).toFixed(0)} MB (target < 1024 MB)`,
    );
  } finally {
    await service.stop();
    removeDir(service.dataDir);
  }
}

async function main(): Promise<void> {
  const bytes = numericCsv(TRAIN_ROWS);

  const service = await startService();
  const call = client(service.url, service.apiKey);
  let trainMs: number;
  try {
    const datasetId = await upload(call, bytes, 'train');
    await breakdown(service, call, datasetId);
    trainMs = (await train(call, datasetId)).ms;
    await latency(service, call, datasetId);
  } finally {
    await service.stop();
    removeDir(service.dataDir);
  }
  for (const rows of BIG_ROWS) await bigCase(rows, trainMs);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
