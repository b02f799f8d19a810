import type { Baseline, EvaluationMetrics, Metrics, Predictions } from '../../contract';
import {
  DATASET_PARTITION,
  evaluateMulticlassBaselines,
  evaluateMulticlassModel,
  fittedMulticlassSubject,
  multiclassImportances,
  partitionFrames,
  predictMulticlass,
  singlePartitionMulticlass,
  type DataFrame,
  type MulticlassBaselineSubject,
  type MulticlassModel,
} from '../../engine';
import { finiteJson } from '../base/json';
import { generalisationWarnings } from './generalisation';
import type { JsonBody } from './jsonPieces';
import type { FitOutcome, PartitionOutcome } from './tasks';

const METRIC_KEYS = ['accuracy', 'roc_auc', 'roc_auc_weighted', 'log_loss', 'f1', 'precision', 'recall', 'mcc', 'confusion_matrix'] as const;

function summary(full: unknown): Metrics {
  return Object.fromEntries(METRIC_KEYS.map((k) => [k, (full as Record<string, unknown>)[k]])) as Metrics;
}

/** A multiclass model's summary metrics on some rows, as a train or refit reports them. */
export function multiclassMetrics(model: MulticlassModel, rows: DataFrame): Metrics {
  return summary(finiteJson(evaluateMulticlassModel(model, rows)));
}

/** The constant and linear yardsticks of a multiclass model (or the model a fit will make) on the test rows. */
export function multiclassBaselineOf(subject: MulticlassBaselineSubject, train: DataFrame, test: DataFrame): Baseline | null {
  const yardsticks = test.nRows > 0 ? evaluateMulticlassBaselines(subject, train, test) : null;
  return yardsticks
    ? { constant: summary(finiteJson(yardsticks.constant)), linear: yardsticks.linear ? summary(finiteJson(yardsticks.linear)) : null }
    : null;
}

/**
 * A multiclass model's train and test evaluation, its baselines on the test rows (`known` when already computed for
 * these rows and features) and the warnings they raise.
 */
function judged(model: MulticlassModel, train: DataFrame, test: DataFrame, known?: Baseline | null): PartitionOutcome['evaluation'] {
  const trainEval = finiteJson(evaluateMulticlassModel(model, train)) as EvaluationMetrics;
  const testEval = finiteJson(evaluateMulticlassModel(model, test)) as EvaluationMetrics;
  const baseline = known === undefined ? multiclassBaselineOf(fittedMulticlassSubject(model), train, test) : known;
  return { train: trainEval, test: testEval, baseline, warnings: generalisationWarnings(summary(trainEval), summary(testEval), baseline) };
}

/**
 * Everything the service stores about a fitted multiclass model, judged per partition and as a whole; `known`: the
 * partitions' baselines when already computed for these rows and features.
 */
export function multiclassOutcome(
  model: MulticlassModel,
  train: DataFrame,
  test: DataFrame,
  common: Pick<FitOutcome, 'modelJson' | 'features' | 'featureInfo' | 'parameters'>,
  known: Record<string, Baseline | null> | null = null,
): FitOutcome {
  const routing = model.classModels[0];
  const trainFrames = partitionFrames(routing, train);
  const testFrames = partitionFrames(routing, test);
  const partitions = [...routing.partitions.keys()].map((key): PartitionOutcome => {
    const trainRows = trainFrames.get(key) as DataFrame;
    const testRows = testFrames.get(key) as DataFrame;
    const bases = model.classModels.map((m) => m.partitions.get(key)?.baseValue ?? 0);
    return {
      key,
      nTrain: trainRows.nRows,
      nTest: testRows.nRows,
      // One number per partition on the wire: the mean of the class models' base values.
      baseValue: bases.reduce((s, b) => s + b, 0) / bases.length,
      evaluation: judged(singlePartitionMulticlass(model, key), trainRows, testRows, known?.[key]),
    };
  });
  const whole = model.partitionOn === null ? partitions[0].evaluation : judged(model, train, test);
  return {
    ...common,
    classes: model.classes,
    trainMetrics: summary(whole.train),
    testMetrics: summary(whole.test),
    featureImportances: finiteJson(multiclassImportances(model)),
    nTrain: partitions[0]?.nTrain ?? train.nRows,
    nTest: partitions[0]?.nTest ?? test.nRows,
    partitions,
    baseline: whole.baseline,
    warnings: whole.warnings,
  };
}

/** The wire body of a multiclass prediction, its typed arrays handed to jsonPieces as they are. */
export function multiclassPredictions(versionId: string, model: MulticlassModel, frame: DataFrame, explain: boolean): JsonBody<Predictions> {
  const result = predictMulticlass(model, frame, { explain });
  return {
    version_id: versionId,
    n: result.n,
    // One number on the wire: the mean of the class models' whole-data base values.
    base_value: model.classModels.reduce((s, m) => s + (m.partitions.get(DATASET_PARTITION)?.baseValue ?? 0), 0) / model.classModels.length,
    predictions: result.predictions,
    class_probabilities: result.classProbabilities,
    ...(result.classContributions ? { class_contributions: result.classContributions } : {}),
    ...(result.classPairContributions ? { class_interaction_contributions: result.classPairContributions } : {}),
    warnings: result.warnings,
  };
}
