import assert from 'node:assert/strict';
import type * as z from 'zod';
import * as wire from '../../../src/contract';
import * as engine from '../../../src/engine';
import { goldenFrame } from '../engine/helpers';

/**
 * The engine's wire-facing types and the contract's zod-inferred ones, checked by `tsc` (npm run lint). Equal where the
 * two describe the same thing; where the contract is looser, what the engine makes must at least fit it.
 */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Fits<A, B> = [A] extends [B] ? true : false;
type Holds<T extends true> = T;
type Flat<T> = { [K in keyof T]: T[K] };
/** Without the index signature of a zod `looseObject`. */
type Known<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

type CountParam = Exclude<engine.TrainingParamName, 'interactions'>;

export type Agreement = [
  Holds<Equals<engine.ModelType, wire.RequestModelType>>,
  Holds<Equals<engine.WireModelType, wire.WireModelType>>,
  Holds<Equals<engine.FitMethod, z.output<typeof wire.FitMethodSchema>>>,
  Holds<Equals<engine.FeatureImportance, wire.FeatureImportance>>,
  // A hand edit of a version's steps, as the engine applies it and as preview-edits and refit take it.
  Holds<Equals<engine.StepEdit, wire.Edit>>,
  // Per-feature parameters: the refit fields are exactly the table's per-feature entries.
  Holds<Equals<Required<wire.FeatureParams>, Record<engine.PerFeatureParamName, number>>>,
  // Train requests: every training parameter, the split's with their defaults filled in.
  Holds<Equals<Pick<wire.TrainRequestParsed, CountParam>, Flat<Partial<Record<CountParam, number>> & { test_size: number; seed: number }>>>,
  // `interactions` is also a list of pairs; the terms and column types as the engine takes them.
  Holds<Equals<wire.TrainRequestParsed['interactions'], engine.InteractionsSpec | undefined>>,
  Holds<Equals<wire.TrainRequestParsed['feature_types'], Record<string, engine.FeatureTypeSpec> | undefined>>,
  Holds<Equals<wire.TrainRequestParsed['exclude_interactions'], engine.FeaturePair[] | undefined>>,
  // The contract also accepts the hosted service's looser payloads (profile as a JSON string, importances as a list).
  Holds<Fits<engine.PartitionPayload, wire.PartitionPayload>>,
  Holds<Fits<engine.ClassPartitionPayload, wire.PartitionPayload>>,
  // The engine's numbers may be NaN; the service sends them through finiteJson, which turns those into null.
  Holds<Fits<engine.Profile & { version_id: string }, wire.Profile>>,
  Holds<Fits<engine.MulticlassProfile & { version_id: string }, wire.MulticlassProfile>>,
  Holds<Fits<engine.ClassifierMetrics, wire.ClassifierMetrics>>,
  Holds<Fits<engine.RegressorMetrics, wire.RegressorMetrics>>,
  Holds<Fits<engine.MulticlassMetrics, wire.MulticlassMetrics>>,
  Holds<Fits<engine.ClassifierEvaluation, wire.ClassifierEvaluationMetrics>>,
  Holds<Fits<engine.RegressorEvaluation, wire.RegressorEvaluationMetrics>>,
  Holds<Fits<engine.MulticlassEvaluation, wire.MulticlassEvaluationMetrics>>,
  // The contract's health info lets statistics it does not name (quartiles, variance) through.
  Holds<Fits<engine.HealthInfo, Known<wire.HealthInfo>>>,
  Holds<Fits<engine.Distribution, wire.Distribution>>,
  Holds<Fits<Omit<engine.ColumnHealth, 'health_info'> & { importance: number }, Omit<wire.FeatureInfoEntry, 'health_info'>>>,
];

describe('engine and contract agreement', () => {
  it('what the engine makes parses with the contract, once non-finite numbers are null as in JSON', () => {
    const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
    for (const modelType of ['classifier', 'regressor'] as const) {
      const frame = goldenFrame();
      const model = engine.fitModel(frame, { target: modelType === 'classifier' ? 'y' : 'x', modelType });
      for (const payload of engine.toPayloads(model)) wire.PartitionPayloadSchema.parse(asJson(payload));
      wire.ProfileSchema.parse(asJson({ version_id: 'v', ...engine.modelProfile(model) }));
      const evaluation = wire.EvaluationMetricsSchema.parse(asJson(engine.evaluateModel(model, frame)));
      assert.equal('r2' in evaluation, modelType === 'regressor');
    }
    for (const health of engine.scanHealth(goldenFrame())) wire.FeatureInfoEntrySchema.parse(asJson({ ...health, importance: 0 }));
  });
});
