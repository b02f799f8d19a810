import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { evaluateClassifier, evaluateRegressor, mulberry32 } from '../../../../src/engine';
import { resolveObjective } from '../../../../src/engine/params/objective';

/** Rows repeated by their integer weights: a weighted metric must equal the plain metric of these rows. */
function repeated(values: ArrayLike<number>, w: ArrayLike<number>): Float64Array {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) for (let k = 0; k < w[i]; k++) out.push(values[i]);
  return Float64Array.from(out);
}

function close(actual: number | null | undefined, expected: number | null | undefined, what: string): void {
  assert.ok(typeof actual === 'number' && typeof expected === 'number', `${what}: ${actual} vs ${expected}`);
  assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`);
}

describe('weighted metrics', () => {
  const random = mulberry32(5);
  const n = 300;
  const w = Float64Array.from({ length: n }, () => 1 + Math.floor(random() * 4));

  it('weigh every classifier metric as repeating each row by its weight, AUC ties included', () => {
    const y = Float64Array.from({ length: n }, () => (random() < 0.4 ? 1 : 0));
    // Scores on a coarse grid, so that many rows tie.
    const p = Float64Array.from(y, (v) => Math.round((0.3 * v + 0.7 * random()) * 20) / 20);
    const weighted = evaluateClassifier(y, p, { weights: w });
    const plain = evaluateClassifier(repeated(y, w), repeated(p, w));
    for (const key of ['accuracy', 'roc_auc', 'f1', 'precision', 'recall', 'log_loss', 'brier', 'mcc'] as const) close(weighted[key], plain[key], key);
    assert.deepEqual(weighted.confusion_matrix, plain.confusion_matrix);
    assert.deepEqual(weighted.scores.map((s) => s.tp), plain.scores.map((s) => s.tp));
  });

  it('weigh every regression metric and each objective deviance as repeating each row by its weight', () => {
    const y = Float64Array.from({ length: n }, () => (random() < 0.3 ? 0 : 1 + Math.floor(random() * 5)));
    const yhat = Float64Array.from({ length: n }, () => 0.2 + 3 * random());
    for (const name of ['poisson', 'tweedie', 'quantile'] as const) {
      const objective = resolveObjective({ name }, 'regressor');
      const weighted = evaluateRegressor(y, yhat, { weights: w, objective });
      const plain = evaluateRegressor(repeated(y, w), repeated(yhat, w), { objective });
      for (const key of ['r2', 'rmse', 'mae', 'explained_variance', 'poisson_deviance', 'tweedie_deviance', 'pinball_loss', 'coverage'] as const) {
        if (plain[key] === undefined) assert.equal(weighted[key], undefined, key);
        else close(weighted[key], plain[key], `${name} ${key}`);
      }
    }
    const positive = Float64Array.from(y, (v) => v + 0.5);
    const gamma = resolveObjective({ name: 'gamma' }, 'regressor');
    close(evaluateRegressor(positive, yhat, { weights: w, objective: gamma }).gamma_deviance, evaluateRegressor(repeated(positive, w), repeated(yhat, w), { objective: gamma }).gamma_deviance, 'gamma_deviance');
  });

  it('derive the deviances, the pinball loss and the coverage by hand on three rows', () => {
    const y = [0, 2, 5];
    const mu = [0.5, 1, 4];
    const weights = [1, 2, 3];
    const poisson = (2 * (0.5 + 2 * (2 * Math.log(2) - 1) + 3 * (5 * Math.log(5 / 4) - 1))) / 6;
    close(evaluateRegressor(y, mu, { weights, objective: resolveObjective({ name: 'poisson' }, 'regressor') }).poisson_deviance, poisson, 'poisson');
    // α = 0.9: under-predictions cost 0.9 per unit, over-predictions 0.1.
    const quantile = evaluateRegressor(y, mu, { weights, objective: resolveObjective({ name: 'quantile', quantileAlpha: 0.9 }, 'regressor') });
    close(quantile.pinball_loss, (0.1 * 0.5 + 2 * 0.9 * 1 + 3 * 0.9 * 1) / 6, 'pinball');
    close(quantile.coverage, 1 / 6, 'coverage');
  });

  it("equal scikit-learn's weighted metrics to 1e-9, the AUC as roc_auc_score(sample_weight=…)", () => {
    const python = ['python3', '/usr/bin/python3'].find((c) => spawnSync(c, ['-c', 'import sklearn']).status === 0);
    assert.ok(python, 'python3 with scikit-learn is needed (Debian: python3-sklearn)');
    const weights = Array.from({ length: n }, () => 0.1 + 3 * random());
    const y = Array.from({ length: n }, () => (random() < 0.4 ? 1 : 0));
    const p = y.map((v) => Math.round((0.3 * v + 0.7 * random()) * 20) / 20);
    const yr = Array.from({ length: n }, () => (random() < 0.3 ? 0 : 3 * random()));
    const mu = Array.from({ length: n }, () => 0.2 + 3 * random());
    const program = `
import json, sys
import numpy as np
from sklearn import metrics as M
d = json.load(sys.stdin)
w, y, p, yr, mu = (np.array(d[k]) for k in ('w', 'y', 'p', 'yr', 'mu'))
print(json.dumps(dict(
  roc_auc=M.roc_auc_score(y, p, sample_weight=w), accuracy=M.accuracy_score(y, p > 0.5, sample_weight=w),
  log_loss=M.log_loss(y, p, sample_weight=w), f1=M.f1_score(y, p > 0.5, sample_weight=w),
  brier=M.brier_score_loss(y, p, sample_weight=w), r2=M.r2_score(yr, mu, sample_weight=w),
  mae=M.mean_absolute_error(yr, mu, sample_weight=w), rmse=M.mean_squared_error(yr, mu, sample_weight=w) ** 0.5,
  explained_variance=M.explained_variance_score(yr, mu, sample_weight=w),
  poisson_deviance=M.mean_poisson_deviance(yr, mu, sample_weight=w),
  tweedie_deviance=M.mean_tweedie_deviance(yr, mu, sample_weight=w, power=1.5),
  pinball_loss=M.mean_pinball_loss(yr, mu, sample_weight=w, alpha=0.9))))`;
    const run = spawnSync(python, ['-c', program], { input: JSON.stringify({ w: weights, y, p, yr, mu }), encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const expected = JSON.parse(run.stdout) as Record<string, number>;
    const ours: Record<string, unknown> = { ...evaluateClassifier(y, p, { weights }) };
    for (const objective of [{ name: 'poisson' }, { name: 'tweedie' }, { name: 'quantile', quantileAlpha: 0.9 }] as const) {
      Object.assign(ours, evaluateRegressor(yr, mu, { weights, objective: resolveObjective(objective, 'regressor') }));
    }
    for (const [key, value] of Object.entries(expected)) close(ours[key] as number, value, key);
  });
});
