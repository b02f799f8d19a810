import { pyString } from '../codeText/python';
import { pyNumber, pyTuple } from './pythonLiterals';
import type { AxisTable, PairTable } from './scoringTables';

/**
 * An axis as a feature's bins are written, with each bin's number for its score: `_contribution` then gives the bin
 * a value falls in, exactly as it finds a feature's (the missing-value bin, numbered last, for what fits no bin).
 */
function axisBins(axis: AxisTable): string {
  if (axis.kind === 'numeric') {
    return `("numeric", ${pyTuple(axis.uppers.map(pyNumber))}, ${pyTuple(axis.uppers.map((_, b) => String(b)))}, ${axis.uppers.length})`;
  }
  const numbered = axis.groups.flatMap((group, b) => group.map((c) => `${pyString(c)}: ${b}`));
  return `("categorical", {${numbered.join(', ')}}, ${axis.groups.length})`;
}

function pairEntry(pair: PairTable, indent: string): string[] {
  return [
    `${indent}${pyString(pair.name)}: (`,
    ...pair.axes.map((axis) => `${indent}    (${pyString(axis.feature)}, ${axisBins(axis)}),`),
    `${indent}    (`,
    ...pair.cells.map((row) => `${indent}        ${pyTuple(row.map(pyNumber))},`),
    `${indent}    ),`,
    `${indent}),`,
  ];
}

/** A partition's `"pairs"` entry of MODELS (each pair term by name), indented by `indent`. */
export function pairsEntry(pairs: readonly PairTable[], indent: string): string[] {
  if (!pairs.length) return [`${indent}"pairs": {},`];
  return [`${indent}"pairs": {`, ...pairs.flatMap((pair) => pairEntry(pair, `${indent}    `)), `${indent}},`];
}

/** A partition's `"pairs_std"` entry: each pair's cells' standard deviations across the bags (none: no entry). */
export function pairsSpreadEntry(pairs: readonly PairTable[], indent: string): string[] {
  const kept = pairs.filter((pair) => pair.cellsStd?.some((row) => row.some((v) => v !== 0)));
  if (!kept.length) return [];
  const rows = (pair: PairTable) => (pair.cellsStd ?? []).map((row) => `${indent}        ${pyTuple(row.map(pyNumber))},`);
  return [`${indent}"pairs_std": {`, ...kept.flatMap((pair) => [`${indent}    ${pyString(pair.name)}: (`, ...rows(pair), `${indent}    ),`]), `${indent}},`];
}

export const PAIRS_COMMENT = [
  "# pairs: {name: ((feature, bins), (feature, bins), cells)}, each axis' bins written as a feature's with each bin's",
  '# number for its score (the missing-value bin last); cells[i][j] is the contribution of a row in bin i of the first',
  '# feature and bin j of the second.',
];

/** How the module's docstring explains the pair terms. */
export const PAIRS_DOC = [
  'Each pair term (PAIRS) adds the cell of its two features\' coarse bins (a missing or unseen value falls in a',
  'feature\'s missing-value bin, the last); its contribution is under its name, "first × second".',
];

/** `_score`'s loop over a partition's pair terms, after its features: each adds its cell to the score. */
export const PAIR_SCORING = [
  '    for name, ((first, first_bins), (second, second_bins), cells) in model["pairs"].items():',
  '        contribution = cells[_contribution(first_bins, row.get(first))][_contribution(second_bins, row.get(second))]',
  '        interactions[name] = contribution',
  '        score += contribution',
];
