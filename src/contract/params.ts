import * as z from 'zod';
import { groupNames, TRAINING_PARAMS, type TrainingParamName } from '../engine/params';
import { rangeSchema } from './common';

type ParamField = ReturnType<typeof rangeSchema>;

/** Optional wire fields for the named training parameters, in table order: an omitted one takes its default. */
function optionalFields<K extends TrainingParamName>(names: readonly K[]): { [P in K]: z.ZodOptional<ParamField> } {
  return Object.fromEntries(names.map((name) => [name, rangeSchema(TRAINING_PARAMS[name].range).optional()])) as {
    [P in K]: z.ZodOptional<ParamField>;
  };
}

/** A field that the request fills with the parameter's default when omitted. */
function defaultedField(name: TrainingParamName) {
  return rangeSchema(TRAINING_PARAMS[name].range).default(TRAINING_PARAMS[name].default);
}

/** The boosted method's training parameters; omitted ones take the engine's defaults for the data's size. */
export const boostFields = optionalFields(groupNames('boost'));

/** The boosted method's per-feature parameters, which a refit changes without data. */
export const boostFeatureFields = optionalFields(groupNames('boostFeature'));

/** The xplainable method's parameters (per feature in a refit); omitted ones keep their value or the engine's default. */
export const treeFields = optionalFields(groupNames('params'));

export const testSizeField = defaultedField('test_size');
/** A refit's test_size: omitted, the version's own split. */
export const optionalTestSizeField = optionalFields(['test_size']).test_size;
export const seedField = defaultedField('seed');

/** How the train's rows are split into training and test rows (see SplitSpec). */
export const SplitSchema = z
  .union([
    z.literal('random'),
    z.strictObject({ time_column: z.string().min(1).describe('the latest test_size share of the rows by this numeric or date column are the test rows') }),
    z.strictObject({ group_column: z.string().min(1).describe('every value of this column wholly in train or in test') }),
  ])
  .describe('random (default): a seeded shuffle; time_column: test on the latest rows; group_column: no group on both sides');

/** What a version records of its split, as the evaluation route returns it. */
export const SplitFactsSchema = z.object({
  split: SplitSchema,
  test_size: z.number(),
  n_test: z.number().int().nonnegative(),
  test_from: z.union([z.number(), z.string()]).nullable().optional().describe('a time split: the earliest time of the test rows (ISO for a date column)'),
});
