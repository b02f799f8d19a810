import type { DatasetSummary } from '../../contract/autotrain';
import type { RequestModelType } from '../../contract/common';
import { stepsFromRecommendations } from '../features/featureEngineering';
import { ruleRecommendations } from '../features/featureRules';
import { rankLabelCandidates, targetModelType } from '../labels/labelRules';
import { AUTOTRAIN_SPLIT } from '../labels/trainingSplit';
import { SEARCH_SIZE } from './parameterSearch';

/** The feature-engineering recommendations an autotrain job applies. */
export const AUTOTRAIN_RECOMMENDATIONS = 5;

/** Fits of one size: `fits` fits of a model on `rows` rows × `features` features. */
export interface FitWork {
  rows: number;
  features: number;
  fits: number;
}

/** The features left after the steps: columns dropped, date parts and ratios added (other steps keep the count). */
function featuresAfter(summary: DatasetSummary, label: string): number {
  const steps = stepsFromRecommendations(ruleRecommendations(summary, undefined).slice(0, AUTOTRAIN_RECOMMENDATIONS), label);
  let features = summary.columns.length - 1;
  for (const step of steps) {
    if (step.type === 'drop_columns') features -= step.columns.length;
    else if (step.type === 'date_parts') features += step.parts.length;
    else if (step.type === 'ratio') features++;
  }
  return Math.max(1, features);
}

/**
 * What an autotrain job fits, from its summary and label (the rules' top label when none is given): the parameter
 * search's fits on the search's training rows (the defaults and every trial), then the final model on autotrain's
 * training rows, once per class of a multiclass label (one-vs-rest fits a model per class).
 */
export function autotrainWork(summary: DatasetSummary, label?: string, modelType?: RequestModelType): FitWork[] {
  const top = label ? undefined : rankLabelCandidates(summary)[0];
  const field = summary.fields.find((f) => f.column === (label ?? top?.column));
  const type = modelType ?? top?.model_type ?? targetModelType(field);
  const classes = field?.properties.num_unique_values ?? 2;
  const models = type === 'classifier' && classes > 2 ? classes : 1;
  const features = field ? featuresAfter(summary, field.column) : Math.max(1, summary.columns.length - 1);
  const trainRows = Math.round(summary.rows * (1 - AUTOTRAIN_SPLIT.test_size));
  return [
    { rows: Math.round(trainRows * (1 - SEARCH_SIZE.validationSize)), features, fits: models * (SEARCH_SIZE.trials + 1) },
    { rows: trainRows, features, fits: models },
  ];
}
