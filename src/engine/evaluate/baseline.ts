import type { DataFrame } from '../data/frame';
import { fitLinearBaseline } from './linearBaseline';
import { evaluateClassifier, evaluateRegressor, rowWeights, usableTarget } from './metrics';
import { weightedQuantile } from '../model/objectiveLoss';
import { isDefaultObjective, linkOf, objectiveOf, resolveObjective, type ResolvedObjective } from '../params/objective';
import type { LinearFamily } from '../linear/linearTerms';
import { checkFit } from '../plan/plan';
import { modelFeatures } from '../model/predict';
import type { ClassifierEvaluation, FitOptions, RegressorEvaluation, TransparentModel } from '../model/types';

/** What the yardsticks of a model depend on: its kind, target, labels and features. */
export interface BaselineSubject {
  modelType: TransparentModel['modelType'];
  target: string;
  targetLabels: TransparentModel['targetLabels'];
  features: readonly string[];
  /** The model's objective, weights and exposure (absent: today's defaults): the yardsticks are fitted with them. */
  objective?: TransparentModel['objective'];
  weightColumn?: string;
  exposureColumn?: string;
}

export function fittedSubject(model: TransparentModel): BaselineSubject {
  return {
    modelType: model.modelType,
    target: model.target,
    targetLabels: model.targetLabels,
    features: modelFeatures(model),
    ...(model.objective ? { objective: model.objective } : {}),
    ...(model.weightColumn ? { weightColumn: model.weightColumn } : {}),
    ...(model.exposureColumn ? { exposureColumn: model.exposureColumn } : {}),
  };
}

/**
 * The subject a fit of `frame` with `options` will have, known before fitting: a caller waiting for fit threads can
 * score the yardsticks meanwhile. Throws what the fit would throw for bad options.
 */
export function plannedSubject(frame: DataFrame, options: FitOptions): BaselineSubject {
  const checked = checkFit(frame, options);
  return {
    modelType: checked.modelType,
    target: checked.target,
    targetLabels: checked.labels,
    features: checked.features,
    ...(isDefaultObjective(checked.objective) ? {} : { objective: objectiveOf(checked.objective) }),
    ...(checked.weightColumn === null ? {} : { weightColumn: checked.weightColumn }),
    ...(checked.exposureColumn === null ? {} : { exposureColumn: checked.exposureColumn }),
  };
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
  const regressor = model.modelType === 'regressor';
  const objective = model.objective ? resolveObjective(model.objective, model.modelType) : null;
  const weights = rowWeights(model, test, testY.rows);
  const score = (yhat: ArrayLike<number>) =>
    regressor ? evaluateRegressor(testY.y, yhat, { weights, objective }) : evaluateClassifier(testY.y, yhat, { labels: model.targetLabels ?? undefined, weights });
  if (!objective && !model.weightColumn) {
    let mean = 0;
    for (const v of trainY.y) mean += v / trainY.y.length;
    const constant = new Float64Array(testY.y.length).fill(mean);
    const features = model.features.filter((f) => trainRows.has(f));
    let linear: BaselineEvaluation['linear'] = null;
    if (features.length > 0) {
      const fitted = fitLinearBaseline(trainRows, features, trainY.y, model.modelType);
      const yhat = fitted.predict(testRows);
      if (yhat.every(Number.isFinite)) linear = score(yhat);
    }
    return { constant: score(constant), linear };
  }
  return objectiveBaselines(model, objective ?? resolveObjective(null, model.modelType), trainRows, trainY.y, testRows, score);
}

/** The yardsticks of a model with an objective or weights: the weighted constant rate (or quantile) and a GLM. */
function objectiveBaselines(
  model: BaselineSubject,
  objective: ResolvedObjective,
  train: DataFrame,
  y: Float64Array,
  test: DataFrame,
  score: (yhat: ArrayLike<number>) => ClassifierEvaluation | RegressorEvaluation,
): BaselineEvaluation {
  const trainWeights = rowWeights(model, train, Int32Array.from({ length: train.nRows }, (_, i) => i));
  const offsetOf = (frame: DataFrame): Float64Array | null => {
    const col = model.exposureColumn && frame.has(model.exposureColumn) ? frame.column(model.exposureColumn) : null;
    return col && col.storage === 'number' ? col.values.map((v) => Math.log(v > 0 ? v : 1)) : null;
  };
  const trainOffset = offsetOf(train);
  const testOffset = offsetOf(test);
  const link = linkOf(objective.name);
  let constant: Float64Array;
  if (objective.name === 'quantile') constant = new Float64Array(test.nRows).fill(weightedQuantile(y, trainWeights, objective.quantileAlpha));
  else {
    let sum = 0;
    let total = 0;
    for (let i = 0; i < y.length; i++) {
      const wi = trainWeights ? trainWeights[i] : 1;
      sum += wi * y[i];
      total += wi * (trainOffset ? Math.exp(trainOffset[i]) : 1);
    }
    const rate = sum / total;
    constant = Float64Array.from({ length: test.nRows }, (_, i) => rate * (testOffset ? Math.exp(testOffset[i]) : 1));
  }
  const features = model.features.filter((f) => train.has(f));
  let linear: BaselineEvaluation['linear'] = null;
  if (features.length > 0) {
    const family: LinearFamily | null =
      link === 'log'
        ? { link, power: objective.name === 'poisson' ? 1 : objective.name === 'gamma' ? 2 : objective.tweediePower, weights: trainWeights, offset: trainOffset }
        : objective.name === 'quantile'
          ? { link: 'identity', alpha: objective.quantileAlpha, weights: trainWeights, offset: null }
          : objective.name === 'huber'
            ? { link: 'identity', delta: objective.huberDelta, weights: trainWeights, offset: null }
            : null;
    const fitted = fitLinearBaseline(train, features, y, model.modelType, family);
    const yhat = family && fitted.predictWith ? fitted.predictWith(test, testOffset) : fitted.predict(test);
    if (yhat.every(Number.isFinite)) linear = score(yhat);
  }
  return { constant: score(constant), linear };
}
