/** The "Refit this feature" form: its fields, starting values and validation (pure). */
import { methodOfVersion, specsForModel, type ParamKey, type ParamSpec } from './trainingParams';
import type { WireModelType } from '../contract/common';
import type { FeatureParams } from '../contract/models';

export interface RefitField {
  name: keyof FeatureParams;
  label: string;
  help: string;
  spec: ParamSpec;
  fallback: number;
}

function label(key: ParamKey): string {
  const words = key.replace(/_/g, ' ');
  return words[0].toUpperCase() + words.slice(1);
}

/** The per-feature parameters of the version's fit method and model type; ranges and wording are the engine's. */
export function refitFields(modelType: WireModelType, parameters: Record<string, unknown> = {}): RefitField[] {
  const kind = modelType === 'regression' ? 'regressor' : 'classifier';
  return specsForModel(kind, 'feature', methodOfVersion(parameters)).map((spec) => ({
    name: spec.key as keyof FeatureParams,
    label: label(spec.key),
    help: spec.help,
    spec,
    fallback: spec.default,
  }));
}

/** Starting values: the version's parameter when it is a number, else the default. */
export function initialRefitValues(modelType: WireModelType, parameters: Record<string, unknown> = {}): Record<string, string> {
  return Object.fromEntries(
    refitFields(modelType, parameters).map((field) => {
      const value = parameters[field.name];
      return [field.name, String(typeof value === 'number' && Number.isFinite(value) ? value : field.fallback)];
    }),
  );
}

export type RefitFormResult =
  | { ok: true; params: FeatureParams }
  | { ok: false; errors: { field: keyof FeatureParams; message: string }[] };

/** Validates the form; each error names the field and the bad value. */
export function parseRefitForm(modelType: WireModelType, values: Record<string, string>, parameters: Record<string, unknown> = {}): RefitFormResult {
  const params: FeatureParams = {};
  const errors: { field: keyof FeatureParams; message: string }[] = [];
  for (const field of refitFields(modelType, parameters)) {
    const raw = (values[field.name] ?? '').trim();
    const value = Number(raw);
    const problem = raw === '' || !Number.isFinite(value) ? 'must be a number' : field.spec.check(value);
    const got = raw === '' || !Number.isFinite(value) ? `"${raw}"` : raw;
    if (problem) errors.push({ field: field.name, message: `${field.label} ${problem} (got ${got}).` });
    else params[field.name] = value;
  }
  return errors.length ? { ok: false, errors } : { ok: true, params };
}
