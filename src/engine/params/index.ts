// The training parameters as the rest of the code base sees them: their table (from which the wire schema, the
// settings and the parameter editor are derived), their ranges and how they group into the fit options.
export * from './table';
export { describeRange, rangeProblem, type ParamRange } from './range';
export { paramGroups, perFeatureParams, type ParamGroups } from './groups';
export {
  CLASSIFICATION_OBJECTIVES,
  OBJECTIVE_DEFAULTS,
  OBJECTIVE_PARAMS,
  REGRESSION_OBJECTIVES,
  resolveObjective,
  type Link,
  type Objective,
  type ObjectiveName,
} from './objective';
export { EngineError } from '../base/errors';
