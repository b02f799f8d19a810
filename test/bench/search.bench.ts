// The autotrain parameter search on the sample datasets: the test score of the parameters it picks (searching only
// the training rows) against the defaults on the same split, and its time as a multiple of one default fit.
// `npm run bench -- search`. The search must never lose to the defaults on these test rows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateModel, fitModel, parseCsv, trainTestSplit, type ModelType } from '../../src/engine';
import { searchParameters } from '../../src/autotrain';

const DATA = join(__dirname, '../../media/datasets');

const TASKS: { file: string; target: string; modelType: ModelType; drop: string[] }[] = [
  { file: 'penguins.csv', target: 'Body Mass (g)', modelType: 'regressor', drop: [] },
  { file: 'cars.csv', target: 'Miles_per_Gallon', modelType: 'regressor', drop: ['Name'] },
  { file: 'cars.csv', target: 'Horsepower', modelType: 'regressor', drop: ['Name'] },
  { file: 'seattle-weather.csv', target: 'temp_max', modelType: 'regressor', drop: ['date'] },
  { file: 'weather.csv', target: 'location', modelType: 'classifier', drop: ['date'] },
  { file: 'movies.csv', target: 'IMDB Rating', modelType: 'regressor', drop: ['Title'] },
  { file: 'flights-20k.csv', target: 'delay', modelType: 'regressor', drop: [] },
];

async function main(): Promise<void> {
  let losses = 0;
  console.log('task                             rows  defaults  searched  search time (× one default fit)  chosen');
  for (const task of TASKS) {
    const frame = parseCsv(readFileSync(join(DATA, task.file), 'utf8')).drop(task.drop);
    const split = trainTestSplit(frame.nRows, 0.2, 42);
    const train = frame.take(split.train);
    const test = frame.take(split.test);
    const testScore = (options: object): number => {
      const e = evaluateModel(fitModel(train, { target: task.target, modelType: task.modelType, seed: 42, ...options }), test) as { r2?: number | null; roc_auc?: number | null };
      return (task.modelType === 'regressor' ? e.r2 : e.roc_auc) ?? NaN;
    };
    const fitStarted = performance.now();
    const defaults = testScore({});
    const fitMs = performance.now() - fitStarted;
    const searchStarted = performance.now();
    const result = await searchParameters(train, { target: task.target, modelType: task.modelType, seed: 42 });
    const searchMs = performance.now() - searchStarted;
    const { smoothing, ...boost } = result.params;
    const searched = result.improved ? testScore({ boost, boostFeature: smoothing === undefined ? undefined : { smoothing } }) : defaults;
    if (searched < defaults) losses++;
    const name = `${task.file.replace('.csv', '')} ${task.target}`;
    console.log(
      `${name.padEnd(30)} ${String(frame.nRows).padStart(6)}  ${defaults.toFixed(4).padStart(8)}  ${searched.toFixed(4).padStart(8)}  ${`${(searchMs / 1000).toFixed(1)} s (${(searchMs / fitMs).toFixed(1)}×)`.padStart(31)}  ${result.improved ? JSON.stringify(result.params) : 'defaults'}`,
    );
  }
  console.log(`\nsearched parameters worse than the defaults on the test rows: ${losses} of ${TASKS.length}`);
  if (losses) process.exitCode = 1;
}

void main();
