// Multiclass benchmark: fit time of a one-vs-rest multiclass model (100k rows × 12 features × 5 classes) next to the
// binary fit of the same rows and features, with the default fit method, measured in the same run, on one thread (CPU
// time) and on worker threads (wall time: `fitModelParallel`, `fitMulticlassParallel`); plus the held-out macro AUC and
// the check that every row's probabilities sum to 1. Then a 10-class × 64-feature table of 1,438 training rows
// (synthetic 8×8 digits, the size of scikit-learn's digits split 80/20): its multiclass fit as the service runs it
// (default threads) next to the binary fit of one digit against the rest on the same rows, with its held-out scores.
import { availableParallelism, loadavg } from 'node:os';
import {
  DataFrame,
  evaluateMulticlassModel,
  fitModel,
  fitModelParallel,
  fitMulticlass,
  fitMulticlassParallel,
  mulberry32,
  numberColumn,
  categoryColumn,
  predictMulticlass,
  trainTestSplit,
  type Column,
} from '../../src/engine';
import { digitsFrame } from '../unit/engine/helpers';

const ROWS = 100_000;
const FEATURES = 12;
const CLASSES = 5;

/** 10 continuous and 2 categorical features, 2 % missing; the classes are quintiles of an additive signal plus noise. */
function syntheticFrame(n: number, seed = 7): { frame: DataFrame; signal: Float64Array } {
  const random = mulberry32(seed);
  const cols: Column[] = [];
  const signal = new Float64Array(n);
  for (let f = 0; f < FEATURES; f++) {
    if (f < 10) {
      const v = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const x = (random() * 2 - 1) * 100;
        v[i] = random() < 0.02 ? NaN : x;
        if (!Number.isNaN(v[i])) signal[i] += Math.sin(x / 30 + f);
      }
      cols.push(numberColumn(`f${f}`, v));
    } else {
      const k = 8;
      const codes = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        codes[i] = random() < 0.02 ? -1 : Math.floor(random() * k);
        if (codes[i] >= 0) signal[i] += ((codes[i] * 3) % k) / k;
      }
      cols.push(categoryColumn(`f${f}`, codes, Array.from({ length: k }, (_, j) => `level${j}`)));
    }
  }
  for (let i = 0; i < n; i++) signal[i] += (random() - 0.5) * 2;
  return { frame: new DataFrame(cols, n), signal };
}

async function wallSeconds(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return (performance.now() - start) / 1000;
}

function cpuSeconds(fn: () => void): number {
  const before = process.cpuUsage();
  fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

const { frame, signal } = syntheticFrame(ROWS);
const sorted = Float64Array.from(signal).sort();
const cuts = Array.from({ length: CLASSES - 1 }, (_, k) => sorted[Math.floor(((k + 1) * ROWS) / CLASSES)]);
const classOf = (v: number) => cuts.filter((c) => v >= c).length;
const median = sorted[Math.floor(ROWS / 2)];
const levels = Array.from({ length: CLASSES }, (_, k) => `class${k}`);
const multi = frame.withColumns([categoryColumn('target', Int32Array.from(signal, classOf), levels)]);
const binary = frame.withColumns([numberColumn('target', Float64Array.from(signal, (v) => (v > median ? 1 : 0)))]);
const { train, test } = trainTestSplit(ROWS, 0.2, 1);

const options = { target: 'target', modelType: 'classifier' as const };
const binarySeconds = cpuSeconds(() => fitModel(binary.take(train), options));
let model!: ReturnType<typeof fitMulticlass>;
const multiSeconds = cpuSeconds(() => (model = fitMulticlass(multi.take(train), options)));
const held = multi.take(test);
const metrics = evaluateMulticlassModel(model, held);
const probs = predictMulticlass(model, held).classProbabilities;
let worst = 0;
for (let r = 0; r < held.nRows; r++) worst = Math.max(worst, Math.abs(levels.reduce((s, c) => s + probs[c][r], 0) - 1));

async function main(): Promise<void> {
  console.log(`rows ${train.length} train / ${test.length} test × ${FEATURES} features, default fit method`);
  console.log(`binary fit (baseline)        ${binarySeconds.toFixed(2)} s CPU`);
  console.log(`multiclass fit, ${CLASSES} classes    ${multiSeconds.toFixed(2)} s CPU  (${(multiSeconds / binarySeconds).toFixed(2)}× the binary fit; one-vs-rest fits ${CLASSES} binary models)`);
  const threads = Math.max(2, availableParallelism());
  const parallel = { threads, minCells: 0 };
  const binaryWall = await wallSeconds(() => fitModelParallel(binary.take(train), options, parallel));
  let parallelModel!: Awaited<ReturnType<typeof fitMulticlassParallel>>;
  const multiWall = await wallSeconds(async () => (parallelModel = await fitMulticlassParallel(multi.take(train), options, [], parallel)));
  const serialProbs = probs[levels[0]];
  const same = predictMulticlass(parallelModel, held).classProbabilities[levels[0]].every((p, r) => p === serialProbs[r]);
  console.log(`binary fit on ${threads} threads      ${binaryWall.toFixed(2)} s wall`);
  console.log(
    `multiclass fit on ${threads} threads  ${multiWall.toFixed(2)} s wall  (${(multiWall / binaryWall).toFixed(2)}× the binary fit on ${threads} threads; one-thread CPU time / this wall time ${(multiSeconds / multiWall).toFixed(2)}; ${same ? 'same' : 'DIFFERENT'} predictions as one thread)`,
  );
  console.log(`held-out macro AUC ${metrics.roc_auc?.toFixed(4)}, weighted AUC ${metrics.roc_auc_weighted?.toFixed(4)}, accuracy ${metrics.accuracy.toFixed(4)}`);
  console.log(`largest |Σ probabilities − 1| over held-out rows: ${worst.toExponential(2)}`);
  await digits();
  console.log(`(1-minute load average ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores: wall times grow with other processes' load)`);
}

void main();

/** The 10-class × 64-feature fit against one binary fit of the same rows, both as the service runs them. */
async function digits(): Promise<void> {
  const all = digitsFrame(1797);
  const split = trainTestSplit(all.nRows, 0.2, 1);
  const rows = all.take(split.train);
  const held = all.take(split.test);
  const zero = rows.withColumns([numberColumn('digit', Float64Array.from({ length: rows.nRows }, (_, r) => (rows.value(r, 'digit') === '0' ? 1 : 0)))]);
  const options = { target: 'digit', modelType: 'classifier' as const };
  fitModel(zero, options);
  const binaryCpu = cpuSeconds(() => fitModel(zero, options));
  const multiCpu = cpuSeconds(() => fitMulticlass(rows, options));
  const binaryWall = await wallSeconds(() => fitModelParallel(zero, options));
  let model!: Awaited<ReturnType<typeof fitMulticlassParallel>>;
  const multiWall = await wallSeconds(async () => (model = await fitMulticlassParallel(rows, options)));
  const scores = evaluateMulticlassModel(model, held);
  console.log(`\n10 classes × 64 features × ${rows.nRows} training rows (synthetic 8×8 digits), default fit method and threads:`);
  console.log(`binary fit, digit 0 against the rest (baseline)   ${binaryWall.toFixed(2)} s wall  (${binaryCpu.toFixed(2)} s CPU on one thread)`);
  console.log(
    `multiclass fit, 10 classes × 64 features          ${multiWall.toFixed(2)} s wall  (${(multiWall / binaryWall).toFixed(2)}× the binary fit; on one thread ${multiCpu.toFixed(2)} s CPU, ${(multiCpu / binaryCpu).toFixed(2)}×)`,
  );
  console.log(`held-out accuracy ${scores.accuracy.toFixed(4)}, log loss ${scores.log_loss?.toFixed(4)}, macro AUC ${scores.roc_auc?.toFixed(4)}`);
}
