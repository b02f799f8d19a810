import { EngineError } from '../base/errors';
import { axisSize } from './lookup';
import type { PairTerm, PartitionModel, TransparentModel } from './types';

/** How a pair term is named where a name is needed (predict's pair contributions): the two features, `a × b`. */
export function pairName(pair: PairTerm): string {
  return `${pair.axes[0].feature} × ${pair.axes[1].feature}`;
}

/** A pair's per-cell values (score, count, share) as rows over its first axis' bins, each over the second's. */
export function cellRows(pair: PairTerm, values: ArrayLike<number>): number[][] {
  const width = axisSize(pair.axes[1]);
  return Array.from({ length: axisSize(pair.axes[0]) }, (_, a) => Array.from({ length: width }, (_, b) => values[a * width + b]));
}

export function partitionPairs(part: PartitionModel): PairTerm[] {
  return part.pairs ?? [];
}

/**
 * The partition without the named pair terms and without every pair of a removed feature. Pair terms are purified
 * (their mean over the training rows is 0), so the base value needs no change.
 */
export function withoutPairs(part: PartitionModel, removedFeatures: ReadonlySet<string>, removedPairs: ReadonlySet<string>): PartitionModel {
  if (!part.pairs) return part;
  const pairs = part.pairs.filter((p) => !removedPairs.has(pairName(p)) && !p.axes.some((a) => removedFeatures.has(a.feature)));
  const { pairs: _all, ...rest } = part;
  return pairs.length ? { ...rest, pairs } : rest;
}

/** The names of the pairs a refit removes, each checked to be a pair term of some partition of the model. */
export function checkedPairNames(model: TransparentModel, pairs: readonly (readonly [string, string])[]): Set<string> {
  const known = new Set<string>();
  for (const part of model.partitions.values()) for (const p of partitionPairs(part)) known.add(pairName(p));
  return new Set(
    pairs.map((pair, i) => {
      const name = `${pair[0]} × ${pair[1]}`;
      if (!known.has(name)) {
        throw new EngineError(`remove_interactions[${i}]: ${name} is not a pair term of the model (its pairs: ${[...known].join(', ') || 'none'})`, `remove_interactions[${i}]`);
      }
      return name;
    }),
  );
}
