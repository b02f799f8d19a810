// Engine benchmark: fit time and peak memory for 100k and 1M rows × 20 features (seeded synthetic data), refit of
// all features, prediction throughput, and the sample file flights-20k.csv. Every case runs in its own child process
// so its peak RSS is its own. Each figure is printed with a ratio against a baseline measured in the same run.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import {
  categoryColumn,
  DataFrame,
  fitModel,
  fitModelParallel,
  mulberry32,
  numberColumn,
  parseCsv,
  predict,
  refit,
  type Column,
  type FitMethod,
  type ModelType,
  type TransparentModel,
} from '../../src/engine';
import { numericSplitStats } from '../../src/engine/xplainable/tree';

const FEATURES = 20;
const FLIGHTS = join(__dirname, '../../media/datasets/flights-20k.csv');

interface CaseResult {
  [figure: string]: number;
}

/** 12 continuous, 4 small-integer and 4 categorical features, 2 % missing; the target is additive plus noise. */
function syntheticFrame(n: number, modelType: ModelType, features = FEATURES, seed = 1): DataFrame {
  const random = mulberry32(seed);
  const cols: Column[] = [];
  const signal = new Float64Array(n);
  for (let f = 0; f < features; f++) {
    const name = `f${f}`;
    if (f < features * 0.8) {
      const v = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const x = f < 12 ? Math.round((random() * 2 - 1) * 1e6) / 1e3 : Math.floor(random() * 50);
        v[i] = random() < 0.02 ? NaN : x;
        if (!Number.isNaN(v[i])) signal[i] += f < 12 ? Math.sin(x / 200 + f) : (x % 7) / 7;
      }
      cols.push(numberColumn(name, v));
    } else {
      const k = 5 + f * 2;
      const codes = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        codes[i] = random() < 0.02 ? -1 : Math.floor(random() * k);
        if (codes[i] >= 0) signal[i] += ((codes[i] * 37) % k) / k;
      }
      cols.push(categoryColumn(name, codes, Array.from({ length: k }, (_, j) => `level${j}`)));
    }
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const noisy = signal[i] + (random() - 0.5) * 2;
    y[i] = modelType === 'classifier' ? (noisy > 4.5 ? 1 : 0) : noisy * 10;
  }
  cols.push(numberColumn('target', y));
  return new DataFrame(cols, n);
}

/**
 * CPU seconds (user + system) spent in fn: on a machine shared with other work the wall time mostly measures the
 * others' load, so single-threaded figures are CPU time; fits also report wall time.
 */
function cpuSeconds(fn: () => void): number {
  const before = process.cpuUsage();
  fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

/** The reference's split statistics: for every candidate split, a pass over all rows (O(S·N)). */
function naiveSplitStats(x: Float64Array, y: Float64Array, splits: Float64Array): void {
  const lc = new Float64Array(splits.length);
  const ls = new Float64Array(splits.length);
  for (let c = 0; c < splits.length; c++) {
    for (let i = 0; i < x.length; i++) {
      if (x[i] <= splits[c]) {
        lc[c]++;
        ls[c] += y[i];
      }
    }
  }
}

const CASES: Record<string, () => CaseResult | Promise<CaseResult>> = {
  /** O(S·N) against our sort + prefix sums, on one continuous feature of 5,000 rows. */
  splitStats() {
    const frame = syntheticFrame(5000, 'classifier');
    const x = (frame.column('f0') as { values: Float64Array }).values;
    const y = (frame.column('target') as { values: Float64Array }).values;
    const splits = numericSplitStats(x, y, 0.1).stats.splits;
    const ours = cpuSeconds(() => {
      for (let r = 0; r < 20; r++) numericSplitStats(x, y, 0.1);
    }) / 20;
    const naive = cpuSeconds(() => naiveSplitStats(x, y, splits));
    return { ours, naive, splits: splits.length };
  },
  fit100k: () => fitCase(100_000, 'classifier', 1),
  fit1m: () => fitCase(1_000_000, 'classifier', 1),
  fit1mThreads: () => fitCase(1_000_000, 'classifier', 2),
  fitRegressor100k: () => fitCase(100_000, 'regressor', 1),
  fitRegressor1mThreads: () => fitCase(1_000_000, 'regressor', 2),
  boosted400k: () => fitCase(400_000, 'classifier', 2, 'boosted', 12),
  boostedRegressor400k: () => fitCase(400_000, 'regressor', 2, 'boosted', 12),
  xplainable400k: () => fitCase(400_000, 'classifier', 1, 'xplainable', 12),
  flights() {
    const text = readFileSync(FLIGHTS, 'utf8');
    let frame = parseCsv(text);
    const parse = cpuSeconds(() => (frame = parseCsv(text)));
    const delay = (frame.column('delay') as { values: Float64Array }).values;
    const late = frame.withColumns([numberColumn('late', delay.map((v) => (v > 15 ? 1 : 0)))]).drop(['delay']);
    fitModel(late, { target: 'late', modelType: 'classifier' });
    const fitClf = cpuSeconds(() => fitModel(late, { target: 'late', modelType: 'classifier' }));
    const fitReg = cpuSeconds(() => fitModel(frame, { target: 'delay', modelType: 'regressor' }));
    const jsonParse = cpuSeconds(() => JSON.parse(JSON.stringify(text.split('\n').map((l) => l.split(',')))));
    return { parse, jsonParse, fitClf, fitReg, rows: frame.nRows };
  },
};

function fitCase(n: number, modelType: ModelType, threads: number, method: FitMethod = 'xplainable', features = FEATURES): Promise<CaseResult> | CaseResult {
  const frame = syntheticFrame(n, modelType, features);
  const options = { target: 'target', modelType, method };
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const measure = (model: TransparentModel): CaseResult => {
    const fit = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const peakMb = process.resourceUsage().maxRSS / 1024;
    const refitAll = cpuSeconds(() => refit(model, { params: method === 'boosted' ? { smoothing: 2 } : { max_depth: 6, min_leaf_size: 0.001 } }));
    let predicted = 0;
    const predictTime = cpuSeconds(() => (predicted = predict(model, frame, { explain: true }).n));
    const leaves = model.partitions.get('__dataset__')?.features.reduce((s, f) => s + f.leaves.score.length, 0) ?? 0;
    return { fit, cpu: (cpu.user + cpu.system) / 1e6, peakMb, refitAll, predictionsPerSecond: predicted / predictTime, leaves };
  };
  if (threads === 1) return measure(fitModel(frame, options));
  return fitModelParallel(frame, options, { threads, minCells: 0 }).then(measure);
}

function runChild(name: string): CaseResult {
  const r = spawnSync(process.execPath, ['--max-old-space-size=4096', '--import', 'tsx', __filename, name], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`bench case ${name} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() as string) as CaseResult;
}

const fmt = (v: number, digits = 2): string => v.toFixed(digits);
const ratio = (a: number, b: number): string => `${fmt(a / b)}×`;

async function main(): Promise<void> {
  const only = process.argv[2];
  if (only) {
    process.stdout.write(`${JSON.stringify(await CASES[only]())}\n`);
    return;
  }
  const split = runChild('splitStats');
  console.log(
    `split statistics, 1 feature × 5k rows (${split.splits} splits): ours ${fmt(split.ours * 1000)} ms CPU, naive O(S·N) ${fmt(split.naive * 1000)} ms CPU → ${ratio(split.naive, split.ours)} faster`,
  );
  const fitLine = (label: string, r: CaseResult, base?: CaseResult): string =>
    `${label}: fit ${fmt(r.fit)} s wall, ${fmt(r.cpu)} s CPU${base ? ` (${ratio(r.cpu, base.cpu)} the 100k CPU time for 10× the rows)` : ''}; peak RSS ${fmt(r.peakMb, 0)} MB${base ? ` (${ratio(r.peakMb, base.peakMb)} of 100k)` : ''}; ${r.leaves} leaves`;
  const restLine = (label: string, r: CaseResult): string =>
    `${label}: refit of all ${FEATURES} features ${fmt(r.refitAll * 1000, 0)} ms CPU (${ratio(r.refitAll, r.cpu)} of the fit's CPU time); predictions with explanations ${fmt(r.predictionsPerSecond / 1e6)} M rows per CPU second`;
  const c100 = runChild('fit100k');
  const c1m = runChild('fit1m');
  const c1mT = runChild('fit1mThreads');
  console.log(fitLine(`xplainable classifier 100k × ${FEATURES}`, c100));
  console.log(fitLine(`xplainable classifier 1M × ${FEATURES}, 1 thread (targets: < 10 s, < 1024 MB)`, c1m, c100));
  console.log(`${fitLine(`xplainable classifier 1M × ${FEATURES}, 2 threads`, c1mT, c100)}; ${ratio(c1m.fit, c1mT.fit)} faster (wall) than 1 thread`);
  console.log(restLine('classifier 100k', c100));
  console.log(`${restLine('classifier 1M (target: refit < 1 s)', c1m)}; ${ratio(c1m.predictionsPerSecond, c100.predictionsPerSecond)} the 100k prediction rate`);
  const r100 = runChild('fitRegressor100k');
  const r1m = runChild('fitRegressor1mThreads');
  console.log(fitLine(`xplainable regressor 100k × ${FEATURES}`, r100));
  console.log(fitLine(`xplainable regressor 1M × ${FEATURES}, 2 threads`, r1m, r100));
  console.log(restLine('regressor 100k', r100));
  console.log(restLine('regressor 1M', r1m));
  const b400 = runChild('boosted400k');
  const br400 = runChild('boostedRegressor400k');
  const x400 = runChild('xplainable400k');
  console.log(
    `400k × 12, default boosted method on 2 threads (target ≤ 2 s): classifier ${fmt(b400.fit)} s, regressor ${fmt(br400.fit)} s wall; reference xplainable classifier on 1 thread ${fmt(x400.fit)} s (boosted ${ratio(b400.fit, x400.fit)} its time)`,
  );
  console.log(restLine('boosted classifier 400k × 12', b400).replace(`${FEATURES} features`, '12 features'));
  const fl = runChild('flights');
  console.log(
    `flights-20k.csv (${fl.rows} rows), CPU times: parse ${fmt(fl.parse * 1000, 0)} ms (${ratio(fl.parse, fl.jsonParse)} of a JSON round trip of the split lines), boosted classifier fit ${fmt(fl.fitClf * 1000, 0)} ms, boosted regressor fit ${fmt(fl.fitReg * 1000, 0)} ms (${ratio(fl.fitReg, fl.fitClf)} of the classifier)`,
  );
  const load = loadavg()[0];
  console.log(`(1-minute load average ${fmt(load)} on ${availableParallelism()} cores: wall times grow with other processes' load; CPU times do not)`);
}

void main();
