import type { PairAxis } from '../model/types';
import type { BinnedFeature } from './binning';

/** A feature's bins grouped into a pair term's coarse axis. */
export interface CoarseAxis {
  axis: PairAxis;
  /** The axis bin of each of the feature's own bins (its missing bin → the axis' missing bin, last). */
  binOf: Int32Array;
  size: number;
  /** Each row's axis bin. */
  codes: Uint16Array;
}

/**
 * At most `maxBins` value bins (plus the missing-value bin) from a feature's own: runs of neighbouring numeric bins
 * holding about equal numbers of rows, whose bounds are bounds of the feature's bins; for categories, the most
 * frequent ones each in their own bin and the rest together in one.
 */
export function coarseAxis(bf: BinnedFeature, maxBins: number): CoarseAxis {
  const values = bf.nBins - 1;
  const count = new Float64Array(bf.nBins);
  for (let i = 0; i < bf.codes.length; i++) count[bf.codes[i]]++;
  const binOf = new Int32Array(bf.nBins);
  let axis: PairAxis;
  let size: number;
  if (bf.type === 'numeric') {
    const upper: number[] = [];
    let total = 0;
    for (let b = 0; b < values; b++) total += count[b];
    let left = total;
    let inBin = 0;
    for (let b = 0; b < values; b++) {
      binOf[b] = upper.length;
      inBin += count[b];
      left -= count[b];
      const binsLeft = maxBins - upper.length;
      if (b < values - 1 && binsLeft > 1 && inBin >= (inBin + left) / binsLeft) {
        upper.push((bf.cuts as Float64Array)[b]);
        inBin = 0;
      }
    }
    upper.push(Infinity);
    size = upper.length + 1;
    axis = { feature: bf.name, type: 'numeric', upper: Float64Array.from(upper), categories: null };
  } else {
    const byCount = Array.from({ length: values }, (_, b) => b).sort((a, b) => count[b] - count[a] || a - b);
    const own = values <= maxBins ? values : maxBins - 1;
    byCount.forEach((b, rank) => (binOf[b] = Math.min(rank, own)));
    const groups = values <= maxBins ? values : maxBins;
    const categories: string[][] = Array.from({ length: groups }, () => []);
    (bf.categories as string[]).forEach((c, i) => categories[binOf[(bf.categoryBin as Int32Array)[i]]].push(c));
    size = groups + 1;
    axis = { feature: bf.name, type: 'categorical', upper: null, categories };
  }
  binOf[values] = size - 1;
  const codes = new Uint16Array(bf.codes.length);
  for (let i = 0; i < codes.length; i++) codes[i] = binOf[bf.codes[i]];
  return { axis, binOf, size, codes };
}
