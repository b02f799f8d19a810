import { EngineError } from '../base/errors';

/** The losses a model can be fitted to minimise. */
export const REGRESSION_OBJECTIVES = ['squared_error', 'poisson', 'tweedie', 'gamma', 'huber', 'quantile'] as const;
export const CLASSIFICATION_OBJECTIVES = ['log_loss'] as const;
export type ObjectiveName = (typeof REGRESSION_OBJECTIVES)[number] | (typeof CLASSIFICATION_OBJECTIVES)[number];

/** How a model's additive score maps to its prediction: as it is, its exponential, or its logistic. */
export type Link = 'identity' | 'log' | 'logit';

export interface Objective {
  name: ObjectiveName;
  /** `tweedie` only: the variance power p, 1 < p < 2 (default 1.5). */
  tweediePower?: number;
  /** `huber` only: residuals beyond ±δ count linearly (default 1). */
  huberDelta?: number;
  /** `quantile` only: the quantile α predicted, 0 < α < 1 (default 0.5). */
  quantileAlpha?: number;
}

/** An objective with its parameter filled in. */
export interface ResolvedObjective {
  name: ObjectiveName;
  tweediePower: number;
  huberDelta: number;
  quantileAlpha: number;
}

export const OBJECTIVE_DEFAULTS = { tweediePower: 1.5, huberDelta: 1, quantileAlpha: 0.5 } as const;

/** Each objective's own parameter, with its wire name and open range. */
export const OBJECTIVE_PARAMS = {
  tweediePower: { objective: 'tweedie', wire: 'tweedie_power', min: 1, max: 2 },
  huberDelta: { objective: 'huber', wire: 'huber_delta', min: 0, max: Infinity },
  quantileAlpha: { objective: 'quantile', wire: 'quantile_alpha', min: 0, max: 1 },
} as const;

export function linkOf(name: ObjectiveName): Link {
  if (name === 'poisson' || name === 'tweedie' || name === 'gamma') return 'log';
  return name === 'log_loss' ? 'logit' : 'identity';
}

export function defaultObjective(modelType: 'classifier' | 'regressor'): ObjectiveName {
  return modelType === 'classifier' ? 'log_loss' : 'squared_error';
}

/** Whether a fit with this objective is today's plain squared error or log loss. */
export function isDefaultObjective(objective: Pick<Objective, 'name'> | null | undefined): boolean {
  return !objective || objective.name === 'squared_error' || objective.name === 'log_loss';
}

/**
 * The objective of a fit, checked against the model type, with its parameter's default; a parameter of another
 * objective, or out of its range, is an error naming it.
 */
export function resolveObjective(objective: Objective | null | undefined, modelType: 'classifier' | 'regressor'): ResolvedObjective {
  const name = objective?.name ?? defaultObjective(modelType);
  const allowed: readonly string[] = modelType === 'classifier' ? CLASSIFICATION_OBJECTIVES : REGRESSION_OBJECTIVES;
  if (!allowed.includes(name)) {
    throw new EngineError(`objective ${JSON.stringify(name)} does not fit a ${modelType}; it takes ${allowed.map((a) => `"${a}"`).join(', ')}`, 'objective');
  }
  const out: ResolvedObjective = { name, ...OBJECTIVE_DEFAULTS };
  for (const [key, spec] of Object.entries(OBJECTIVE_PARAMS) as [keyof typeof OBJECTIVE_PARAMS, (typeof OBJECTIVE_PARAMS)[keyof typeof OBJECTIVE_PARAMS]][]) {
    const value = objective?.[key];
    if (value === undefined || value === null) continue;
    if (spec.objective !== name) throw new EngineError(`${spec.wire} belongs to objective "${spec.objective}", not "${name}" (got ${value})`, spec.wire);
    if (typeof value !== 'number' || !(value > spec.min && value < spec.max)) {
      throw new EngineError(`${spec.wire} must be above ${spec.min}${Number.isFinite(spec.max) ? ` and below ${spec.max}` : ''} (got ${String(value)})`, spec.wire);
    }
    out[key] = value;
  }
  return out;
}

/** The objective as a model keeps it: its name and its own parameter only. */
export function objectiveOf(resolved: ResolvedObjective): Objective {
  const own = (Object.keys(OBJECTIVE_PARAMS) as (keyof typeof OBJECTIVE_PARAMS)[]).find((k) => OBJECTIVE_PARAMS[k].objective === resolved.name);
  return own ? { name: resolved.name, [own]: resolved[own] } : { name: resolved.name };
}

/** Whether an objective cannot take this target value (negative for Poisson and Tweedie, not positive for Gamma). */
export function targetProblem(name: ObjectiveName, y: number): boolean {
  if (name === 'poisson' || name === 'tweedie') return y < 0;
  if (name === 'gamma') return !(y > 0);
  return false;
}

/** The target values an objective takes, as a sentence names them. */
export function targetDomain(name: ObjectiveName): string {
  return name === 'gamma' ? 'positive' : 'non-negative';
}
