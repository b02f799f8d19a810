import { buildCalibration } from './calibration';
import { fitCategoricalFeature, fitNumericFeature, type FeatureInput } from './construct';
import type { DataFrame } from '../data/frame';
import { leafIndices } from '../model/lookup';
import type { FeatureModel, PartitionModel, TransparentModel } from '../model/types';
import type { FitPlan } from '../plan/plan';
import { normaliseClassifier } from './normalise';
import { fitRidge } from './ridge';

/** One feature's training data and settings, as plain cloneable data (also what a fit worker receives). */
export interface FeatureTask {
  input: FeatureInput;
  alpha: number;
  y: Float64Array;
  column: { storage: 'number'; values: Float64Array } | { storage: 'category'; codes: Int32Array; levels: readonly string[] };
}

export function fitFeatureTask(t: FeatureTask): FeatureModel {
  return t.column.storage === 'number'
    ? fitNumericFeature(t.input, t.column.values, t.y, t.alpha)
    : fitCategoricalFeature(t.input, t.column.codes, t.column.levels, t.y);
}

/** The per-feature tasks of every partition, in plan order (partition by partition, features in order). */
export function featureTasks(plan: FitPlan): FeatureTask[] {
  const regressor = plan.modelType === 'regressor';
  return plan.parts.flatMap(({ frame, y }) => {
    const base = mean(y);
    return plan.features.map((name): FeatureTask => {
      const col = frame.column(name);
      return {
        input: { name, params: plan.params, base, regressor },
        alpha: plan.alpha,
        y,
        column: col.storage === 'number' ? { storage: 'number', values: col.values } : { storage: 'category', codes: col.codes, levels: col.levels },
      };
    });
  });
}

/** Builds the model from fitted features (`fitted` in `featureTasks` order): normalisation or Ridge, calibration. */
export function assembleModel(plan: FitPlan, fitted: FeatureModel[]): TransparentModel {
  const k = plan.features.length;
  const partitions = new Map(
    plan.parts.map((part, i) => [part.key, finishPartition(plan, part, fitted.slice(i * k, (i + 1) * k))] as const),
  );
  return { modelType: plan.modelType, method: 'xplainable', target: plan.target, partitionOn: plan.partitionOn, targetLabels: plan.labels, partitions };
}

function finishPartition(plan: FitPlan, part: FitPlan['parts'][number], features: FeatureModel[]): PartitionModel {
  const n = part.y.length;
  const base = mean(part.y);
  const model: PartitionModel = {
    key: part.key,
    nTrain: n,
    baseValue: base,
    params: { ...plan.params },
    alpha: plan.alpha,
    features,
    idColumns: plan.idColumns,
    calibration: null,
    support: null,
    predictionRange: [-Infinity, Infinity],
  };
  if (plan.modelType === 'regressor') {
    const leafIdx = features.map((f) => leafIndices(f, part.frame.column(f.name), n));
    const ridge = fitRidge(features, leafIdx, part.y);
    features.forEach((f, i) => applyCoefficients(f, ridge.coef[i]));
    model.baseValue = ridge.intercept;
  } else {
    normaliseClassifier(features, base);
    if (plan.mapCalibration) Object.assign(model, buildCalibration(trainingScores(model, part.frame), part.y));
  }
  return model;
}

/** Regressor leaf scores: raw × Ridge coefficient (−0 stored as 0, which JSON can carry). */
export function applyCoefficients(f: FeatureModel, coef: Float64Array): void {
  f.coef = coef;
  for (let i = 0; i < coef.length; i++) f.leaves.score[i] = f.leaves.raw[i] * coef[i] + 0;
}

/** Additive scores of a partition model on the rows of a frame. */
function trainingScores(model: PartitionModel, frame: DataFrame): Float64Array {
  const scores = new Float64Array(frame.nRows).fill(model.baseValue);
  for (const f of model.features) {
    const idx = leafIndices(f, frame.has(f.name) ? frame.column(f.name) : undefined, frame.nRows);
    const s = f.leaves.score;
    for (let r = 0; r < scores.length; r++) scores[r] += s[idx[r]];
  }
  return scores;
}

function mean(y: Float64Array): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += y[i];
  return s / y.length;
}
