import { strict as assert } from 'node:assert';
import { DataFrame, evaluateClassifier, fitLinearBaseline, fitModel, mulberry32, numberColumn, predict, trainTestSplit } from '../../../../src/engine';

/** Thirty correlated features with small linear effects and a logistic target: where steps alone trail a linear model. */
function linearTask(n: number, seed: number): DataFrame {
  const random = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const k = 30;
  const x = Array.from({ length: k }, () => new Float64Array(n));
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const factor = normal();
    let s = 0;
    for (let j = 0; j < k; j++) {
      x[j][i] = 0.6 * factor + 0.8 * normal();
      s += x[j][i] * (j % 2 ? 0.5 : -0.3);
    }
    y[i] = random() < 1 / (1 + Math.exp(-2 * s)) ? 1 : 0;
  }
  return new DataFrame([...x.map((values, j) => numberColumn(`x${j}`, values)), numberColumn('y', y)]);
}

describe('engine: small boosted fits start from a linear model where it validates better', () => {
  it('stays within 0.005 test AUC of the logistic regression on small, nearly linear data', () => {
    let boosted = 0;
    let linear = 0;
    const seeds = [1, 2, 3];
    for (const seed of seeds) {
      const data = linearTask(570, seed);
      const split = trainTestSplit(data.nRows, 0.2, seed);
      const train = data.take(split.train);
      const test = data.take(split.test);
      const y = Array.from((test.column('y') as { values: Float64Array }).values);
      const model = fitModel(train, { target: 'y', modelType: 'classifier' });
      boosted += (evaluateClassifier(y, Array.from(predict(model, test).probabilities as Float64Array)).roc_auc ?? 0) / seeds.length;
      const features = train.names.filter((n) => n !== 'y');
      const baseline = fitLinearBaseline(train, features, (train.column('y') as { values: Float64Array }).values, 'classifier');
      linear += (evaluateClassifier(y, Array.from(baseline.predict(test))).roc_auc ?? 0) / seeds.length;
    }
    assert.ok(boosted >= linear - 0.005, `boosted ${boosted.toFixed(4)} vs linear ${linear.toFixed(4)}`);
  });
});
