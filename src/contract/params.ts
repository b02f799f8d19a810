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
