/** The "Refit this feature" form: its fields, starting values and validation (pure). */
import type { ModelType } from '../../contract/common';
import type { FeatureParams } from '../../contract/models';

export interface RefitField {
  name: keyof FeatureParams;
  label: string;
  help: string;
  min: number;
  max?: number;
  integer?: boolean;
  choices?: readonly number[];
  fallback: number;
  /** The model type the parameter affects; both when absent. */
  only?: ModelType;
}

/** Ranges follow the refit request's contract; fallbacks are the engine defaults. */
export const REFIT_FIELDS: readonly RefitField[] = [
  { name: 'max_depth', label: 'Max depth', help: 'Deepest split of the feature\u2019s tree (1 to 64).', min: 1, max: 64, integer: true, fallback: 8 },
  { name: 'min_info_gain', label: 'Min information gain', help: 'Smallest gain that justifies a split (0 to 1).', min: 0, max: 1, fallback: 0.0001 },
  { name: 'min_leaf_size', label: 'Min leaf size', help: 'Smallest leaf, as a fraction of the rows (0 to 1).', min: 0, max: 1, fallback: 0.0001 },
  { name: 'weight', label: 'Weight', help: 'Activation weight (0 or more).', min: 0, fallback: 1, only: 'binary_classification' },
  { name: 'power_degree', label: 'Power degree', help: 'Activation power (1, 3 or 5).', min: 1, integer: true, choices: [1, 3, 5], fallback: 1, only: 'binary_classification' },
  { name: 'sigmoid_exponent', label: 'Sigmoid exponent', help: 'Activation sigmoid exponent (0 or more).', min: 0, fallback: 0, only: 'binary_classification' },
  { name: 'tail_sensitivity', label: 'Tail sensitivity', help: 'Weight of the distribution tails (1 or more).', min: 1, fallback: 1, only: 'regression' },
];

export function refitFields(modelType: ModelType): RefitField[] {
  return REFIT_FIELDS.filter((field) => !field.only || field.only === modelType);
}

/** Starting values: the version's parameter when it is a number, else the engine default. */
export function initialRefitValues(modelType: ModelType, parameters: Record<string, unknown> = {}): Record<string, string> {
  return Object.fromEntries(
    refitFields(modelType).map((field) => {
      const value = parameters[field.name];
      return [field.name, String(typeof value === 'number' && Number.isFinite(value) ? value : field.fallback)];
    }),
  );
}

export type RefitFormResult =
  | { ok: true; params: FeatureParams }
  | { ok: false; errors: { field: keyof FeatureParams; message: string }[] };

/** Validates the form; each error names the field and the bad value. */
export function parseRefitForm(modelType: ModelType, values: Record<string, string>): RefitFormResult {
  const params: FeatureParams = {};
  const errors: { field: keyof FeatureParams; message: string }[] = [];
  for (const field of refitFields(modelType)) {
    const raw = (values[field.name] ?? '').trim();
    const value = Number(raw);
    if (raw === '' || !Number.isFinite(value)) {
      errors.push({ field: field.name, message: `${field.label} must be a number (got "${raw}").` });
    } else if (field.integer && !Number.isInteger(value)) {
      errors.push({ field: field.name, message: `${field.label} must be a whole number (got ${raw}).` });
    } else if (field.choices && !field.choices.includes(value)) {
      errors.push({ field: field.name, message: `${field.label} must be one of ${field.choices.join(', ')} (got ${raw}).` });
    } else if (value < field.min || (field.max !== undefined && value > field.max)) {
      const range = field.max === undefined ? `at least ${field.min}` : `between ${field.min} and ${field.max}`;
      errors.push({ field: field.name, message: `${field.label} must be ${range} (got ${raw}).` });
    } else {
      params[field.name] = value;
    }
  }
  return errors.length ? { ok: false, errors } : { ok: true, params };
}
