import type { DataFrame } from '../data/frame';
import { fitLinearBaseline } from './linearBaseline';
import { evaluateClassifier, evaluateRegressor, usableTarget } from './metrics';
import { checkFit } from '../plan/plan';
import { modelFeatures } from '../model/predict';
import type { ClassifierEvaluation, FitOptions, RegressorEvaluation, TransparentModel } from '../model/types';

/** What the yardsticks of a model depend on: its kind, target, labels and features. */
export interface BaselineSubject {
  modelType: TransparentModel['modelType'];
  target: string;
  targetLabels: TransparentModel['targetLabels'];
  features: readonly string[];
}

export function fittedSubject(model: TransparentModel): BaselineSubject {
  return { modelType: model.modelType, target: model.target, targetLabels: model.targetLabels, features: modelFeatures(model) };
}

/**
 * The subject a fit of `frame` with `options` will have, known before fitting: a caller waiting for fit threads can
 * score the yardsticks meanwhile. Throws what the fit would throw for bad options.
 */
export function plannedSubject(frame: DataFrame, options: FitOptions): BaselineSubject {
  const checked = checkFit(frame, options);
  return { modelType: checked.modelType, target: checked.target, targetLabels: checked.labels, features: checked.features };
}

export interface BaselineEvaluation {
  /** Always predicting the training mean (regressor) or the training positive rate (classifier). */
  constant: ClassifierEvaluation | RegressorEvaluation;
  /** Ridge / L2 logistic regression on the model's features, fitted on the same training rows; null if it cannot fit. */
  linear: ClassifierEvaluation | RegressorEvaluation | null;
}

/** The yardsticks a model's test score is read against, fitted on `train` and scored on `test`. */
export function evaluateBaselines(model: BaselineSubject, train: DataFrame, test: DataFrame): BaselineEvaluation | null {
  const trainY = usableTarget(model, train);
  const testY = usableTarget(model, test);
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
  const features = model.features.filter((f) => trainRows.has(f));
  let linear: BaselineEvaluation['linear'] = null;
  if (features.length > 0) {
    const fitted = fitLinearBaseline(trainRows, features, trainY.y, model.modelType);
    const yhat = fitted.predict(testRows);
    if (yhat.every(Number.isFinite)) linear = score(yhat);
  }
  return { constant: score(constant), linear };
}
