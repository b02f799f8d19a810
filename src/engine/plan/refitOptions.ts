import { EngineError } from '../base/errors';
import type { RefitOptions } from '../model/types';

/**
 * The parameters each feature gets in a refit: `featureParams` per feature when given, else `params` for `features`
 * (all when omitted). Every named feature must be one of `known`.
 */
export function featureOverrides(options: RefitOptions, known: Set<string>): Map<string, Record<string, unknown>> {
  const overrides = new Map<string, Record<string, unknown>>();
  if (options.featureParams) {
    for (const [name, params] of Object.entries(options.featureParams)) overrides.set(knownFeature(name, known), params);
  } else {
    for (const name of options.features ?? known) overrides.set(knownFeature(name, known), options.params ?? {});
  }
  return overrides;
}

export function knownFeature(name: string, known: Set<string>): string {
  if (!known.has(name)) throw new EngineError(`Unknown feature ${name}; the model's features are: ${[...known].join(', ')}`, name);
  return name;
}
