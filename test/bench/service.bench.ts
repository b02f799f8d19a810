// Service overhead: train latency through HTTP against the same training run in-process, and how long the request
// thread is held while the autotrain routes compute over a million rows. Reads under load: service-reads.bench.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { TrainRequestSchema, trainFitOptions } from '../../src/contract';
import { runTrain } from '../../src/service/training/pipeline';
import type { TrainTask } from '../../src/service/training/tasks';
import { strikesCsv } from '../unit/service/fixtures';
import { client, DATASETS, removeDir, startService } from '../unit/service/harness';
import { median } from './httpLoad';

const TRAIN_RUNS = 5;
const AUTOTRAIN_ROWS = 1_000_000;

async function trainOverhead(): Promise<void> {
  const service = await startService();
  const call = client(service.url, service.apiKey);
  try {
    const flights = readFileSync(join(DATASETS, 'flights-20k.csv'), 'utf8');
    const upload = await call('POST', '/v1/datasets?name=flights', { body: flights, contentType: 'text/csv' });
    const datasetId = upload.body.dataset_id as string;
    const body = { target_column: 'delay', model_name: 'flights', dataset_id: datasetId, model_type: 'regressor' };
    const directTrain: TrainTask = {
      kind: 'train', source: { path: join(DATASETS, 'flights-20k.csv'), label: 'flights' }, testSource: null, testSize: 0.2, preprocessor: null,
      rareClasses: 'error', threads: availableParallelism(),
      fit: trainFitOptions(TrainRequestSchema.parse(body), 'boosted'),
    };
    const http: number[] = [];
    const direct: number[] = [];
    await call('POST', '/v1/models/train', { json: body });
    await runTrain(directTrain);
    for (let i = 0; i < TRAIN_RUNS; i++) {
      let t = performance.now();
      const res = await call('POST', '/v1/models/train', { json: body });
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
      http.push(performance.now() - t);
      t = performance.now();
      await runTrain(directTrain);
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
      console.log(`${`POST ${route}`.padEnd(38)} ${total.toFixed(0).padStart(6)} ms, longest wait between health answers ${longestWait.toFixed(0)} ms, ratio ${(longestWait / total).toFixed(2)} (target < 0.5)`);
    }
  } finally {
    await service.stop();
    removeDir(service.dataDir);
  }
}

async function main(): Promise<void> {
  await trainOverhead();
  await autotrainStalls();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
