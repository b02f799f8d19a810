// Model quality on the sample datasets: for each task, several seeded train/test splits, training with no
// parameters — the default `boosted` method (with its pair terms), the same without pairs, the reference `xplainable`
// method and the linear baseline (ridge / logistic regression) on the same rows — and the mean test AUC (classifiers)
// or R² (regressors), with fit times.
// `npm run bench -- accuracy`; `XMODELS_BENCH_PARAMS='{"learning_rate":0.1}'` tries other boosted parameters.
// Then each objective against scikit-learn (objectivesAccuracy.ts); `XMODELS_BENCH_TASKS=objectives` runs only that.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DataFrame,
  evaluateClassifier,
  evaluateRegressor,
  fitLinearBaseline,
  fitModel,
  parseCsv,
  predict,
  trainTestSplit,
  categoryColumn,
  mulberry32,
  type Column,
  type FitMethod,
  type ModelType,
} from '../../src/engine';
import { textValue } from '../../src/engine/data/frame';
import { objectivesAccuracy } from './objectivesAccuracy';

const DATA = join(__dirname, '../../media/datasets');
const SPLITS = Number(process.env.XMODELS_BENCH_SPLITS ?? 3);
const boostParams = JSON.parse(process.env.XMODELS_BENCH_PARAMS ?? '{}') as Record<string, number>;
const featureParams = JSON.parse(process.env.XMODELS_BENCH_FEATURE ?? '{}') as Record<string, number>;
const only = process.env.XMODELS_BENCH_TASKS?.split(',');

interface Task {
  name: string;
  /** A sample CSV, or `synthetic:<kind>:<rows>` for seeded data whose effects are smooth and nearly linear. */
  file: string;
  target: string;
  modelType: ModelType;
  /** Classifier tasks on a multi-valued column: this value is the positive class. */
  positive?: string;
  drop?: string[];
}

const TASKS: Task[] = [
  { name: 'cars mpg', file: 'cars.csv', target: 'Miles_per_Gallon', modelType: 'regressor', drop: ['Name'] },
  { name: 'cars horsepower', file: 'cars.csv', target: 'Horsepower', modelType: 'regressor', drop: ['Name'] },
  { name: 'penguins mass', file: 'penguins.csv', target: 'Body Mass (g)', modelType: 'regressor' },
  { name: 'movies imdb', file: 'movies.csv', target: 'IMDB Rating', modelType: 'regressor', drop: ['Title', 'Rotten Tomatoes Rating'] },
  { name: 'seattle temp_max', file: 'seattle-weather.csv', target: 'temp_max', modelType: 'regressor' },
  { name: 'weather wind', file: 'weather.csv', target: 'wind', modelType: 'regressor' },
  { name: 'flights delay', file: 'flights-20k.csv', target: 'delay', modelType: 'regressor' },
  { name: 'cars USA', file: 'cars.csv', target: 'Origin', positive: 'USA', modelType: 'classifier', drop: ['Name'] },
  { name: 'penguins Adelie', file: 'penguins.csv', target: 'Species', positive: 'Adelie', modelType: 'classifier' },
  { name: 'penguins male', file: 'penguins.csv', target: 'Sex', positive: 'MALE', modelType: 'classifier' },
  { name: 'seattle rain', file: 'seattle-weather.csv', target: 'weather', positive: 'rain', modelType: 'classifier' },
  { name: 'weather sun', file: 'weather.csv', target: 'weather', positive: 'sun', modelType: 'classifier' },
  { name: 'movies R', file: 'movies.csv', target: 'MPAA Rating', positive: 'R', modelType: 'classifier', drop: ['Title'] },
  { name: 'flights late', file: 'flights-20k.csv', target: 'delay', positive: '>15', modelType: 'classifier' },
  { name: 'linear 450×10', file: 'synthetic:linear:450', target: 'y', modelType: 'regressor' },
  { name: 'logistic 570×30', file: 'synthetic:logistic:570', target: 'y', positive: '1', modelType: 'classifier' },
  { name: 'pairs R 3000×8', file: 'synthetic:pairs:3000', target: 'y', modelType: 'regressor' },
  { name: 'pairs logit 3000×8', file: 'synthetic:pairslogit:3000', target: 'y', positive: '1', modelType: 'classifier' },
];

/**
 * `linear`, `logistic`: correlated features (a shared factor), an additive target of smooth, mostly linear effects
 * plus noise. `pairs`, `pairslogit`: eight independent features, main effects plus two pairwise effects (a product and
 * a threshold crossing) that no sum of single-feature steps can express.
 */
function syntheticCsv(kind: string, n: number): string {
  const random = mulberry32(n);
  if (kind.startsWith('pairs')) return pairsCsv(kind === 'pairslogit', n, random);
  const k = kind === 'linear' ? 10 : 30;
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const lines = [[...Array.from({ length: k }, (_, j) => `x${j}`), 'y'].join(',')];
  for (let i = 0; i < n; i++) {
    const factor = normal();
    const x = Array.from({ length: k }, () => 0.6 * factor + 0.8 * normal());
    const s = x.reduce((acc, v, j) => acc + (j % 3 === 2 ? Math.tanh(v) : v) * (j % 2 ? 0.5 : -0.3), 0);
    const y = kind === 'linear' ? s + normal() : random() < 1 / (1 + Math.exp(-2 * s)) ? 1 : 0;
    lines.push([...x.map((v) => v.toFixed(4)), y].join(','));
  }
  return lines.join('\n');
}

function pairsCsv(logistic: boolean, n: number, random: () => number): string {
  const k = 8;
  const lines = [[...Array.from({ length: k }, (_, j) => `x${j}`), 'y'].join(',')];
  for (let i = 0; i < n; i++) {
    const x = Array.from({ length: k }, () => 2 * random() - 1);
    const s = 0.8 * x[0] - 0.5 * x[1] + Math.sin(2 * x[2]) + 1.5 * x[3] * x[4] + (x[5] > 0 === x[6] > 0 ? 0.8 : -0.8);
    const y = logistic ? (random() < 1 / (1 + Math.exp(-2 * s)) ? 1 : 0) : s + 0.5 * (random() + random() + random() - 1.5);
    lines.push([...x.map((v) => v.toFixed(4)), y].join(','));
  }
  return lines.join('\n');
}

/** The task's frame with a two-valued target for classifier tasks (positive vs the rest). */
function taskFrame(task: Task): DataFrame {
  const [source, kind, rows] = task.file.split(':');
  let frame = parseCsv(source === 'synthetic' ? syntheticCsv(kind, Number(rows)) : readFileSync(join(DATA, task.file), 'utf8'));
  if (task.drop) frame = frame.drop(task.drop);
  if (task.modelType === 'regressor') return frame;
  const col = frame.column(task.target);
  const codes = new Int32Array(frame.nRows);
  for (let r = 0; r < frame.nRows; r++) {
    const v = textValue(col, r);
    codes[r] = v === null ? -1 : task.positive === '>15' ? (Number(v) > 15 ? 1 : 0) : v === task.positive ? 1 : 0;
  }
  return frame.withColumns([categoryColumn(task.target, codes, ['no', 'yes']) as Column]);
}

function targetValues(frame: DataFrame, task: Task): Float64Array {
  const col = frame.column(task.target);
  return Float64Array.from({ length: frame.nRows }, (_, r) => {
    const v = textValue(col, r);
    return v === null ? NaN : task.modelType === 'regressor' ? Number(v) : v === 'yes' ? 1 : 0;
  });
}

function score(task: Task, y: Float64Array, yhat: Float64Array): number {
  const keep = [...y.keys()].filter((i) => !Number.isNaN(y[i]));
  const a = keep.map((i) => y[i]);
  const b = keep.map((i) => yhat[i]);
  return task.modelType === 'regressor' ? (evaluateRegressor(a, b).r2 ?? NaN) : (evaluateClassifier(a, b).roc_auc ?? NaN);
}

/** What is compared: the default boosted model, the same without pair terms, the reference method, the linear baseline. */
const VARIANTS: Record<string, { method: FitMethod; boost?: Record<string, number> } | 'linear'> = {
  boosted: { method: 'boosted', boost: boostParams },
  'no pairs': { method: 'boosted', boost: { ...boostParams, interactions: 0 } },
  xplainable: { method: 'xplainable' },
  linear: 'linear',
};
const methods = Object.keys(VARIANTS);
let worstPairsLoss = { task: '', delta: Infinity };
const totals: Record<string, { score: number; ms: number; n: number; wins: number }> = {};
console.log(`task                 rows  ${methods.map((m) => m.padStart(20)).join('')}   (mean test ${SPLITS} splits; AUC or R², fit ms)`);
for (const task of TASKS) {
  if (only && !only.some((o) => task.name.includes(o))) continue;
  const frame = taskFrame(task);
  const y = targetValues(frame, task);
  const rows = [...y.keys()].filter((i) => !Number.isNaN(y[i]));
  const data = frame.take(rows);
  const yk = Float64Array.from(rows, (r) => y[r]);
  const results: Record<string, { score: number; ms: number }> = {};
  for (const m of methods) results[m] = { score: 0, ms: 0 };
  for (let s = 0; s < SPLITS; s++) {
    const split = trainTestSplit(data.nRows, 0.2, 100 + s);
    const train = data.take(split.train);
    const test = data.take(split.test);
    const yTest = Float64Array.from(split.test, (r) => yk[r]);
    for (const m of methods) {
      const started = performance.now();
      let yhat: Float64Array;
      const variant = VARIANTS[m];
      if (variant === 'linear') {
        const features = train.names.filter((n) => n !== task.target && train.column(n).type !== 'id');
        const model = fitLinearBaseline(train, features, Float64Array.from(split.train, (r) => yk[r]), task.modelType);
        yhat = model.predict(test);
      } else {
        const boosted = variant.method === 'boosted';
        const model = fitModel(train, { target: task.target, modelType: task.modelType, method: variant.method, boost: variant.boost, boostFeature: boosted ? featureParams : undefined });
        const result = predict(model, test);
        yhat = result.probabilities ?? Float64Array.from(result.predictions as number[]);
      }
      results[m].ms += (performance.now() - started) / SPLITS;
      results[m].score += score(task, yTest, yhat) / SPLITS;
    }
  }
  const best = Math.max(...methods.map((m) => results[m].score));
  const pairsDelta = results.boosted.score - results['no pairs'].score;
  if (pairsDelta < worstPairsLoss.delta) worstPairsLoss = { task: task.name, delta: pairsDelta };
  for (const m of methods) {
    const key = `${task.modelType} ${m}`;
    totals[key] ??= { score: 0, ms: 0, n: 0, wins: 0 };
    totals[key].score += results[m].score;
    totals[key].ms += results[m].ms;
    totals[key].n++;
    if (results[m].score === best) totals[key].wins++;
  }
  console.log(
    `${task.name.padEnd(20)} ${String(data.nRows).padStart(5)}  ${methods.map((m) => `${results[m].score.toFixed(4)} ${results[m].ms.toFixed(0).padStart(7)}ms`.padStart(20)).join('')}`,
  );
}
console.log('\nmean per model type (score, fit ms, tasks won):');
for (const [key, t] of Object.entries(totals)) {
  console.log(`  ${key.padEnd(24)} ${(t.score / t.n).toFixed(4)} ${(t.ms / t.n).toFixed(0).padStart(7)}ms  ${t.wins}/${t.n}`);
}
const gap = (type: string) => totals[`${type} boosted`] && (totals[`${type} boosted`].score - totals[`${type} linear`].score) / totals[`${type} linear`].n;
console.log(`boosted − linear: classifier AUC ${gap('classifier')?.toFixed(4)}, regressor R² ${gap('regressor')?.toFixed(4)}`);
console.log(`pairs − no pairs, the worst task: ${worstPairsLoss.task} ${worstPairsLoss.delta.toFixed(4)}`);
if (!only || only.includes('objectives')) {
  objectivesAccuracy().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
