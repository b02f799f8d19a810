import { EngineError } from '../base/errors';

/** How a column is read as a feature, overriding what the reader inferred (`feature_types` on the wire). */
export type FeatureTypeSpec = 'categorical' | 'numeric' | { ordinal: string[] };

/** Two feature names: a pair term asked for or ruled out. */
export type FeaturePair = [string, string];

/** `interactions`: how many pairs the screen keeps, or exactly which pairs are fitted (no screening). */
export type InteractionsSpec = number | FeaturePair[];

/** The terms a fit makes, as the user chose them: checked against the features by `checkedTerms`. */
export interface TermChoices {
  /** Exactly these pairs are fitted (null: the screen chooses up to the `interactions` count). */
  pairs: FeaturePair[] | null;
  /** Pairs never fitted, each as `a × b` in both orders. */
  excluded: Set<string>;
}

/** The key of a pair whatever the order of its features. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

function checkedPair(pair: unknown, field: string, features: ReadonlySet<string>): FeaturePair {
  if (!Array.isArray(pair) || pair.length !== 2 || pair.some((f) => typeof f !== 'string')) {
    throw new EngineError(`${field} must be a pair of two column names (got ${JSON.stringify(pair)})`, field);
  }
  const [a, b] = pair as FeaturePair;
  for (const f of [a, b]) {
    if (!features.has(f)) throw new EngineError(`${field} names ${f}, which is not a feature of the model (its features: ${[...features].join(', ')})`, field);
  }
  if (a === b) throw new EngineError(`${field} pairs ${a} with itself; a pair term needs two different features`, field);
  return [a, b];
}

/** The pairs asked for and ruled out, each checked to name two different features; a 422-worthy error otherwise. */
export function checkedTerms(interactions: InteractionsSpec | undefined, exclude: readonly FeaturePair[] | undefined, features: readonly string[]): TermChoices {
  const known = new Set(features);
  const excluded = new Set(
    (exclude ?? []).map((p, i) => {
      const [a, b] = checkedPair(p, `exclude_interactions[${i}]`, known);
      return pairKey(a, b);
    }),
  );
  if (!Array.isArray(interactions)) return { pairs: null, excluded };
  const seen = new Set<string>();
  const pairs: FeaturePair[] = [];
  interactions.forEach((p, i) => {
    const [a, b] = checkedPair(p, `interactions[${i}]`, known);
    const key = pairKey(a, b);
    if (excluded.has(key)) throw new EngineError(`interactions[${i}] asks for ${a} × ${b}, which exclude_interactions rules out`, `interactions[${i}]`);
    if (!seen.has(key)) pairs.push([a, b]);
    seen.add(key);
  });
  return { pairs, excluded };
}
