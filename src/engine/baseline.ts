import { binaryLabels, type DataFrame } from './frame';
import { fitLinearBaseline } from './linearBaseline';
import { evaluateClassifier, evaluateRegressor } from './metrics';
import { modelFeatures } from './predict';
import type { ClassifierEvaluation, RegressorEvaluation, TransparentModel } from './types';

export interface BaselineEvaluation {
  /** Always predicting the training mean (regressor) or the training positive rate (classifier). */
  constant: ClassifierEvaluation | RegressorEvaluation;
  /** Ridge / L2 logistic regression on the model's features, fitted on the same training rows; null if it cannot fit. */
  linear: ClassifierEvaluation | RegressorEvaluation | null;
}

/** The yardsticks a model's test score is read against, fitted on `train` and scored on `test`. */
export function evaluateBaselines(model: TransparentModel, train: DataFrame, test: DataFrame): BaselineEvaluation | null {
  const trainY = targetOf(model, train);
  const testY = targetOf(model, test);
  if (trainY.rows.length === 0 || testY.rows.length === 0) return null;
  const usable = (frame: DataFrame, rows: Int32Array) => (rows.length === frame.nRows ? frame : frame.take(rows));
  const trainRows = usable(train, trainY.rows);
  const testRows = usable(test, testY.rows);
  let mean = 0;
  for (const v of trainY.y) mean += v / trainY.y.length;
  const constant = new Float64Array(testY.y.length).fill(mean);
  const regressor = model.modelType === 'regressor';
  const score = (yhat: ArrayLike<number>) =>
    regressor ? evaluateRegressor(testY.y, yhat) : evaluateClassifier(testY.y, yhat, { labels: model.targetLabels ?? undefined });
  const features = modelFeatures(model).filter((f) => trainRows.has(f));
  let linear: BaselineEvaluation['linear'] = null;
  if (features.length > 0) {
    const fitted = fitLinearBaseline(trainRows, features, trainY.y, model.modelType);
    const yhat = fitted.predict(testRows);
    if (yhat.every(Number.isFinite)) linear = score(yhat);
  }
  return { constant: score(constant), linear };
}

/** The rows with a usable target, and the target as numbers (classifier: 1 for the positive label). */
function targetOf(model: TransparentModel, frame: DataFrame): { rows: Int32Array; y: Float64Array } {
  if (!frame.has(model.target)) return { rows: new Int32Array(0), y: new Float64Array(0) };
  const col = frame.column(model.target);
  const rows: number[] = [];
  const y: number[] = [];
  if (model.modelType === 'regressor') {
    for (let r = 0; r < frame.nRows; r++) {
      const v = col.storage === 'number' ? col.values[r] : NaN;
      if (Number.isNaN(v)) continue;
      rows.push(r);
      y.push(v);
    }
  } else {
    const [negative, positive] = (model.targetLabels ?? []).map(String);
    const labels = binaryLabels(col, frame.nRows, negative, positive);
    for (let r = 0; r < frame.nRows; r++) {
      if (labels[r] < 0) continue;
      rows.push(r);
      y.push(labels[r]);
    }
  }
  return { rows: Int32Array.from(rows), y: Float64Array.from(y) };
}
