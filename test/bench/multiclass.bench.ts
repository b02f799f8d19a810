// Multiclass benchmark: fit time of a one-vs-rest multiclass model (100k rows × 12 features × 5 classes) next to the
// binary fit of the same rows and features, with the default fit method, measured in the same run, on one thread (CPU
// time) and on worker threads (wall time: `fitModelParallel`, `fitMulticlassParallel`); plus the held-out macro AUC and
// the check that every row's probabilities sum to 1. Then a 10-class × 64-feature table of 1,437 training rows
// (synthetic 8×8 digits, the size of scikit-learn's digits split 80/20) against scikit-learn's
// HistGradientBoostingClassifier on the same rows (through Debian's python3-sklearn, in place of LightGBM): CPU time
// on one thread and wall time on the machine's threads, the ratios, and the held-out scores of both; next to it the
// same fit with every bag waiting its whole patience (as before multiclass bags stopped on their own), and one binary
// fit of the same rows.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
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


/** Debian's python3 has scikit-learn (python3-sklearn); another python3 first on PATH may not. */
const PYTHON = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import sklearn']).status === 0);

/**
 * Fits scikit-learn's HistGradientBoostingClassifier (default parameters, as a stand-in for LightGBM) on the training
 * CSV and scores the test CSV; prints its fit's CPU and wall seconds, held-out accuracy and macro one-vs-rest AUC.
 */
const SKLEARN_SCRIPT = `
import json, sys, time
import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.metrics import roc_auc_score
train, test = (np.loadtxt(path, delimiter=',', skiprows=1) for path in sys.argv[1:3])
model = HistGradientBoostingClassifier(random_state=0)
cpu, wall = time.process_time(), time.perf_counter()
model.fit(train[:, :-1], train[:, -1])
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
probabilities = model.predict_proba(test[:, :-1])
accuracy = float((model.classes_[probabilities.argmax(1)] == test[:, -1]).mean())
auc = roc_auc_score(test[:, -1], probabilities, multi_class='ovr', average='macro')
print(json.dumps({'cpu': cpu, 'wall': wall, 'accuracy': accuracy, 'auc': auc}))
`;

interface Timing {
  cpu: number;
  wall: number;
  accuracy: number;
  auc: number;
}

/** The rows as CSV: the 64 pixels, then the digit. */
function digitsCsv(frame: DataFrame, path: string): void {
  const names = frame.names.filter((name) => name !== 'digit');
  const lines = [[...names, 'digit'].join(',')];
  for (let r = 0; r < frame.nRows; r++) lines.push([...names, 'digit'].map((name) => frame.value(r, name)).join(','));
  writeFileSync(path, lines.join('\n'));
}

/**
 * scikit-learn's fit on one thread (CPU time) and on `threads` threads (wall time), each the fastest of `runs`. Its
 * OpenMP threads wait passively, as the fit's worker threads do: spinning ones take cores from each other on a busy machine.
 */
function sklearnTimes(rows: DataFrame, held: DataFrame, threads: number, runs: number): Timing {
  if (!PYTHON) throw new Error('No python3 with scikit-learn: install python3-sklearn.');
  const dir = mkdtempSync(join(tmpdir(), 'xmodels-multiclass-bench-'));
  try {
    const [train, test] = [join(dir, 'train.csv'), join(dir, 'test.csv')];
    digitsCsv(rows, train);
    digitsCsv(held, test);
    const run = (n: number): Timing => {
      const env = { ...process.env, OMP_NUM_THREADS: String(n), OMP_WAIT_POLICY: 'passive' };
      const r = spawnSync(PYTHON, ['-c', SKLEARN_SCRIPT, train, test], { encoding: 'utf8', env });
      if (r.status !== 0) throw new Error(`scikit-learn failed: ${r.stderr}`);
      return JSON.parse(r.stdout) as Timing;
    };
    const one = Array.from({ length: runs }, () => run(1));
    const many = Array.from({ length: runs }, () => run(threads));
    return { ...one[0], cpu: Math.min(...one.map((t) => t.cpu)), wall: Math.min(...many.map((t) => t.wall)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The fastest of `runs` fits on one thread (CPU seconds) and on worker threads (wall seconds), with the last model. */
async function fitTimes<M>(runs: number, serial: () => M, parallel: () => Promise<M>): Promise<{ cpu: number; wall: number; model: M }> {
  let cpu = Infinity;
  let wall = Infinity;
  let model!: M;
  for (let i = 0; i < runs; i++) {
    cpu = Math.min(cpu, cpuSeconds(() => serial()));
    wall = Math.min(wall, await wallSeconds(async () => (model = await parallel())));
  }
  return { cpu, wall, model };
}

/**
 * The 10-class × 64-feature fit against scikit-learn's on the same rows (the baseline), and against the same fit with
 * every bag waiting its whole patience (early_stopping_rounds given, as every fit did before multiclass fits stopped
 * on their own), and one binary fit of the same rows; the service runs them on worker threads.
 */
async function digits(): Promise<void> {
  const all = digitsFrame(1797);
  const split = trainTestSplit(all.nRows, 0.2, 1);
  const rows = all.take(split.train);
  const held = all.take(split.test);
  const zero = rows.withColumns([numberColumn('digit', Float64Array.from({ length: rows.nRows }, (_, r) => (rows.value(r, 'digit') === '0' ? 1 : 0)))]);
  const threads = availableParallelism();
  const runs = 2;
  const options = { target: 'digit', modelType: 'classifier' as const };
  const waiting = { ...options, boost: { early_stopping_rounds: 50 } };
  fitModel(zero, options);
  const sklearn = sklearnTimes(rows, held, threads, runs);
  const multi = await fitTimes(runs, () => fitMulticlass(rows, options), () => fitMulticlassParallel(rows, options));
  const before = await fitTimes(runs, () => fitMulticlass(rows, waiting), () => fitMulticlassParallel(rows, waiting));
  const binary = await fitTimes(runs, () => fitModel(zero, options), () => fitModelParallel(zero, options));
  const line = (what: string, t: { cpu: number; wall: number }, scores: string) =>
    console.log(
      `${what.padEnd(58)} ${t.cpu.toFixed(2).padStart(6)} s CPU (${(t.cpu / sklearn.cpu).toFixed(2)}×)  ${t.wall.toFixed(2).padStart(6)} s wall (${(t.wall / sklearn.wall).toFixed(2)}×)  ${scores}`,
    );
  const heldOut = (model: Awaited<ReturnType<typeof fitMulticlassParallel>>) => {
    const s = evaluateMulticlassModel(model, held);
    return `held-out accuracy ${s.accuracy.toFixed(4)}, macro AUC ${s.roc_auc?.toFixed(4)}, log loss ${s.log_loss?.toFixed(4)}`;
  };
  console.log(`\n10 classes × 64 features × ${rows.nRows} training rows (synthetic 8×8 digits), ${held.nRows} held out; fastest of ${runs} fits,`);
  console.log(`CPU time on one thread and wall time on ${threads} threads, each × scikit-learn's:`);
  line('scikit-learn HistGradientBoostingClassifier (baseline)', sklearn, `held-out accuracy ${sklearn.accuracy.toFixed(4)}, macro AUC ${sklearn.auc.toFixed(4)}`);
  line('multiclass fit', multi, heldOut(multi.model));
  line('multiclass fit, every bag waiting 50 rounds (as before)', before, heldOut(before.model));
  line('binary fit, digit 0 against the rest', binary, '');
}

void main();
