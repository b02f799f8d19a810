import assert from 'node:assert/strict';
import { FeatureParamsSchema, RefitRequestSchema, TrainRequestSchema } from '../../../src/contract';
import {
  describeRange,
  paramGroups,
  PER_FEATURE_PARAM_NAMES,
  perFeatureParams,
  TRAINING_PARAM_NAMES,
  TRAINING_PARAMS,
  type ParamEntry,
} from '../../../src/engine';

const entries = TRAINING_PARAM_NAMES.map((name) => [name, TRAINING_PARAMS[name] as ParamEntry] as const);

/** A value in range that is not the default, so it is surely the one given. */
function givenValue({ range, default: fallback }: ParamEntry): number {
  return range.values?.find((v) => v !== fallback) ?? (range.integer ? fallback + 1 : (fallback + Math.min(range.max, fallback + 1)) / 2);
}

describe('training parameters on the wire', () => {
  it('has every table entry in the train request, with its range, and refuses a value out of it naming the field', () => {
    for (const [name, entry] of entries) {
      const field = TrainRequestSchema.shape[name];
      assert.ok(field, name);
      // `interactions` is also a list of pairs: its count is the union's first option.
      const wrapped = field.unwrap();
      const count = 'options' in wrapped ? wrapped.options[0] : wrapped;
      assert.equal(count.description, describeRange(entry.range), name);
      const issue = TrainRequestSchema.safeParse({ target_column: 'y', [name]: entry.range.min - 1 }).error?.issues[0];
      assert.deepEqual(issue?.path, [name]);
    }
  });

  it('fills in the split parameters with their table defaults and leaves the others out', () => {
    const parsed = TrainRequestSchema.parse({ target_column: 'y' });
    for (const [name, entry] of entries) assert.equal(parsed[name], entry.group === 'split' ? entry.default : undefined, name);
  });

  it('lets a refit change exactly the per-feature parameters', () => {
    const perFeature = ['smoothing', 'monotone', 'max_depth', 'min_info_gain', 'min_leaf_size', 'weight', 'power_degree', 'sigmoid_exponent', 'tail_sensitivity'];
    assert.deepEqual(PER_FEATURE_PARAM_NAMES, perFeature);
    assert.deepEqual(Object.keys(FeatureParamsSchema.shape), perFeature);
    for (const name of perFeature) assert.ok(name in RefitRequestSchema.shape, name);
  });

  it('brings each parameter of a train request to the engine option group it belongs to', () => {
    const perFeature = new Set<string>(PER_FEATURE_PARAM_NAMES);
    for (const [name, entry] of entries.filter(([, e]) => e.group !== 'split')) {
      const value = givenValue(entry);
      const groups = paramGroups(TrainRequestSchema.parse({ target_column: 'y', [name]: value }));
      const group = entry.group as keyof typeof groups;
      assert.deepEqual(groups[group], { [name]: value }, name);
      for (const other of Object.keys(groups) as (keyof typeof groups)[]) if (other !== group) assert.deepEqual(groups[other], {}, `${name} in ${other}`);
      assert.deepEqual(perFeatureParams({ [name]: value }), perFeature.has(name) ? { [name]: value } : {}, name);
    }
  });
});
