// Data path (CSV parse speed is csv.bench.ts): the breakdown of one HTTP train of a
// 400k × 12 upload against the engine-only fit, list/get p99 at 50 clients with and without a concurrent big train,
// and upload + train time and the service's peak memory at 1M and 5M rows. Sizes: BENCH_ROWS=400000,1000000,5000000.
import { readFileSync } from 'node:fs';
import { evaluateModel, fitModel, type DataFrame } from '../../src/engine';
import { loadFrameSync } from '../../src/service/datasets/frameFile';
import { splitFrame } from '../../src/service/training/pipeline';
import { client, removeDir, startService, type Call, type ServiceProcess } from '../unit/service/harness';
import { FEATURES, numericCsv } from './numericCsv';

const [TRAIN_ROWS, ...BIG_ROWS] = (process.env.BENCH_ROWS ?? '400000,1000000,5000000').split(',').map(Number);

const time = <T>(fn: () => T): [T, number] => {
  const t = performance.now();
  const value = fn();
  return [value, performance.now() - t];
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function p99(call: Call, path: string, clients = 50, requests = 1000): Promise<number> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next++ < requests) {
        const t = performance.now();
        const res = await call('GET', path);
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return percentile(latencies.sort((a, b) => a - b), 99);
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

async function train(call: Call, datasetId: string): Promise<number> {
  const t = performance.now();
  const res = await call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'bench', dataset_id: datasetId, model_type: 'classifier' } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return performance.now() - t;
}

async function main(): Promise<void> {
  const bytes = numericCsv(TRAIN_ROWS);

  const service = await startService();
  const call = client(service.url, service.apiKey);
  try {
    const datasetId = await upload(call, bytes, 'train');
    await train(call, datasetId);
    const httpMs = await train(call, datasetId);
    const csvPath = `${service.dataDir}/datasets/${datasetId}.csv`;
    const [frame, readMs] = time(() => loadFrameSync(csvPath));
    const [{ train: trainRows, test }, splitMs] = time(() => splitFrame(frame, 'label', 0.2, 42));
    const [model, fitMs] = time(() => fitModel(trainRows as DataFrame, { target: 'label', modelType: 'classifier', partitionOn: null, dropColumns: [], params: {} }));
    const [, evaluateMs] = time(() => [evaluateModel(model, trainRows), evaluateModel(model, test)]);
    const rest = httpMs - readMs - splitMs - fitMs - evaluateMs;
    console.log(
      `HTTP train ${TRAIN_ROWS} × ${FEATURES}: ${httpMs.toFixed(0)} ms = read frame ${readMs.toFixed(0)} + split ${splitMs.toFixed(0)} + fit ${fitMs.toFixed(0)} + evaluate ${evaluateMs.toFixed(0)} + health/store/HTTP ${rest.toFixed(0)} ms; HTTP / engine fit ${(httpMs / fitMs).toFixed(2)}x (target < 1.3x)`,
    );

    const models = (await call('GET', `/v1/models/teams/${service.teamId}`)).body as { model_id: string }[];
    const listPath = `/v1/models/teams/${service.teamId}`;
    const getPath = `/v1/models/${models[0].model_id}`;
    await p99(call, '/v1/health');
    const quiet = { health: await p99(call, '/v1/health'), list: await p99(call, listPath), get: await p99(call, getPath) };
    const training = train(call, datasetId);
    const busy = { health: await p99(call, '/v1/health'), list: await p99(call, listPath), get: await p99(call, getPath) };
    await training;
    const fmt = (r: typeof quiet) => `health ${r.health.toFixed(1)} ms, list ${r.list.toFixed(1)} ms, get ${r.get.toFixed(1)} ms`;
    console.log(`p99 at 50 clients, idle: ${fmt(quiet)}; during a ${TRAIN_ROWS}-row train: ${fmt(busy)} (target list/get < 20 ms)`);

    for (const rows of BIG_ROWS) {
      const big = numericCsv(rows);
      const t = performance.now();
      const id = await upload(call, big, `rows-${rows}`);
      const uploadMs = performance.now() - t;
      const trainMs = await train(call, id);
      console.log(
        `${rows} rows (${(big.length / 1e6).toFixed(0)} MB): upload+parse ${(uploadMs / 1000).toFixed(1)} s, HTTP train ${(trainMs / 1000).toFixed(1)} s, service peak RSS ${peakMemoryMb(service).toFixed(0)} MB`,
      );
    }
  } finally {
    await service.stop();
    removeDir(service.dataDir);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
