// Each objective side by side on synthetic insurance-like tasks (test/unit/engine/objectiveTasks.ts): the boosted
// model fitted with the objective (and the exposure as an offset), scikit-learn's HistGradientBoostingRegressor with
// the same loss where it has one, and a GLM (Poisson, Gamma, Tweedie with a log link; a linear quantile fit). All are
// scored in TypeScript with the engine's metrics on the same held-out rows. Needs a python3 with scikit-learn.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateRegressor, fitModelParallel, predict, resolveObjective, type Objective } from '../../src/engine';
import { frameCsv, objectiveFrame, type ObjectiveTask } from '../unit/engine/objectiveTasks';

interface ObjectiveBench {
  name: string;
  task: ObjectiveTask;
  rows: number;
  objective: Objective;
  exposure: boolean;
  /** The python expressions of the two yardsticks, given X, rate (y / exposure) and the exposure as sample weight. */
  hgb: string;
  glm: string;
}

const FEATURES = ['age', 'power', 'region', 'bonus', 'noise'];

const BENCHES: ObjectiveBench[] = [
  {
    name: 'frequency (poisson)',
    task: 'frequency',
    rows: 120_000,
    objective: { name: 'poisson' },
    exposure: true,
    hgb: "HistGradientBoostingRegressor(loss='poisson', categorical_features=[2], random_state=0)",
    glm: 'PoissonRegressor(alpha=1e-6, max_iter=1000)',
  },
  {
    name: 'severity (gamma)',
    task: 'severity',
    rows: 30_000,
    objective: { name: 'gamma' },
    exposure: false,
    // scikit-learn 1.2 has no gamma loss for HistGradientBoosting: its log-link loss, Poisson, stands in.
    hgb: "HistGradientBoostingRegressor(loss='poisson', categorical_features=[2], random_state=0)",
    glm: 'GammaRegressor(alpha=1e-6, max_iter=1000)',
  },
  {
    name: 'premium (tweedie 1.5)',
    task: 'premium',
    rows: 120_000,
    objective: { name: 'tweedie', tweediePower: 1.5 },
    exposure: true,
    // No Tweedie loss in HistGradientBoosting: Poisson (a log link on the same mean) stands in.
    hgb: "HistGradientBoostingRegressor(loss='poisson', categorical_features=[2], random_state=0)",
    glm: "TweedieRegressor(power=1.5, link='log', alpha=1e-6, max_iter=1000)",
  },
  {
    name: 'quantile 0.9',
    task: 'quantile',
    rows: 30_000,
    objective: { name: 'quantile', quantileAlpha: 0.9 },
    exposure: false,
    hgb: "HistGradientBoostingRegressor(loss='quantile', quantile=0.9, categorical_features=[2], random_state=0)",
    glm: "QuantileRegressor(quantile=0.9, alpha=0, solver='highs')",
  },
];

const PROGRAM = `
import sys, time, json
import numpy as np, pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import PoissonRegressor, GammaRegressor, TweedieRegressor, QuantileRegressor
train, test, hgb, glm, exposed = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] == '1'
tr, te = pd.read_csv(train), pd.read_csv(test)
regions = sorted(tr.region.unique())
def codes(d):
    x = d[${JSON.stringify(FEATURES)}].copy()
    x['region'] = pd.Categorical(d.region, categories=regions).codes
    return x
def onehot(d):
    x = d[['age', 'power', 'bonus', 'noise']].copy()
    for r in regions[1:]: x['region_' + r] = (d.region == r).astype(float)
    return (x - onehot_mean) / onehot_sd
onehot_mean, onehot_sd = 0, 1
base = onehot(tr); onehot_mean, onehot_sd = base.mean(), base.std().replace(0, 1)
e_tr = tr.exposure if exposed else np.ones(len(tr))
e_te = te.exposure if exposed else np.ones(len(te))
out = {}
for name, make, X in (('hgb', hgb, codes), ('glm', glm, onehot)):
    model = eval(make)
    started = time.time()
    model.fit(X(tr), tr.y / e_tr, sample_weight=e_tr)
    out[name] = {'seconds': time.time() - started, 'predictions': list(model.predict(X(te)) * e_te)}
print(json.dumps(out))
`;

/** The metrics that judge a model of this objective on held-out rows: its deviance, or pinball loss and coverage. */
function judge(bench: ObjectiveBench, y: Float64Array, yhat: ArrayLike<number>): Record<string, number> {
  const e = evaluateRegressor(y, yhat, { objective: resolveObjective(bench.objective, 'regressor') });
  const picked = { deviance: e.poisson_deviance ?? e.gamma_deviance ?? e.tweedie_deviance, pinball: e.pinball_loss, coverage: e.coverage, r2: e.r2 };
  return Object.fromEntries(Object.entries(picked).filter(([, v]) => typeof v === 'number')) as Record<string, number>;
}

export async function objectivesAccuracy(): Promise<void> {
  const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import sklearn, pandas']).status === 0);
  if (!python) throw new Error('No python3 with scikit-learn and pandas: install python3-sklearn and python3-pandas.');
  const dir = mkdtempSync(join(tmpdir(), 'xmodels-objectives-'));
  console.log('\nobjectives (held-out rows; deviance = the objective\'s mean deviance; fit seconds):');
  console.log(`${'task'.padEnd(24)}${'rows'.padStart(8)}  ${'metric'.padEnd(10)}${'boosted'.padStart(10)}${'HGB'.padStart(10)}${'GLM'.padStart(10)}   boosted/HGB`);
  try {
    for (const bench of BENCHES) {
      const train = objectiveFrame(bench.task, bench.rows, 1);
      const test = objectiveFrame(bench.task, Math.round(bench.rows / 4), 2);
      writeFileSync(join(dir, 'train.csv'), frameCsv(train));
      writeFileSync(join(dir, 'test.csv'), frameCsv(test));
      const started = performance.now();
      const model = await fitModelParallel(train, { target: 'y', modelType: 'regressor', features: FEATURES, objective: bench.objective, exposureColumn: bench.exposure ? 'exposure' : null });
      const ours = { seconds: (performance.now() - started) / 1000, predictions: predict(model, test).predictions as number[] };
      const run = spawnSync(python, ['-c', PROGRAM, join(dir, 'train.csv'), join(dir, 'test.csv'), bench.hgb, bench.glm, bench.exposure ? '1' : '0'], { encoding: 'utf8', maxBuffer: 1 << 28 });
      if (run.status !== 0) throw new Error(run.stderr);
      const theirs = JSON.parse(run.stdout) as Record<'hgb' | 'glm', { seconds: number; predictions: number[] }>;
      const y = (test.column('y') as { values: Float64Array }).values;
      const scored = [ours, theirs.hgb, theirs.glm].map((m) => judge(bench, y, m.predictions));
      for (const metric of Object.keys(scored[0])) {
        const [a, b, c] = scored.map((s) => s[metric]);
        console.log(`${bench.name.padEnd(24)}${String(bench.rows).padStart(8)}  ${metric.padEnd(10)}${a.toFixed(4).padStart(10)}${b.toFixed(4).padStart(10)}${c.toFixed(4).padStart(10)}   ${(a / b).toFixed(3)}`);
      }
      console.log(`${''.padEnd(34)}${'fit s'.padEnd(10)}${ours.seconds.toFixed(1).padStart(10)}${theirs.hgb.seconds.toFixed(1).padStart(10)}${theirs.glm.seconds.toFixed(1).padStart(10)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
