import assert from 'node:assert/strict';
import { DataFrame, fitModel, fitMulticlass, modelProfile, mulberry32, multiclassProfile, numberColumn, categoryColumn } from '../../../src/engine';
import type { Interaction, ModelProfile, PartitionProfile } from '../../../src/contract/models';
import { panelProfile } from '../../../src/views/classProfiles';
import { axisLabels, listTerms, pairHeatmap, pairTerm, type PairHeatmap } from '../../../src/views/pairHeatmap';
import { listFeatures } from '../../../src/views/profileSeries';
import { partitionProfile } from '../panels/fixtures';

const interaction: Interaction = {
  features: ['age', 'city'],
  importance: 0.2,
  bins: [
    [{ lower: null, upper: 30 }, { lower: 30, upper: null }, { missing: true }],
    [{ categories: ['Paris'] }, { categories: ['Lyon', 'Nice', 'Lille', 'Metz'] }, { missing: true }],
  ],
  scores: [
    [0.4, -0.2, 0],
    [-0.1, 0.05, 0.3],
    [0.8, -0.02, 0],
  ],
  freq: [
    [0.3, 0.2, 0.02],
    [0.25, 0.18, 0.01],
    [0, 0.03, 0.01],
  ],
};

const withPairs: PartitionProfile = {
  ...partitionProfile,
  feature_importances: [
    { feature: 'age', importance: 0.5 },
    { feature: 'city', importance: 0.15 },
    { feature: 'Balance', importance: 0.05 },
  ],
  interactions: [interaction, { ...interaction, features: ['Balance', 'city'], importance: 0.1 }],
};

describe('views: pair heat maps', () => {
  it('ranks pairs as "a × b" among the features by importance, or by name', () => {
    assert.deepEqual(
      listTerms(withPairs, '', 'importance').map((t) => [t.feature, t.importance]),
      [['age', 0.5], ['age × city', 0.2], ['city', 0.15], ['Balance × city', 0.1], ['Balance', 0.05]],
    );
    assert.deepEqual(listTerms(withPairs, '', 'name').map((t) => t.feature), ['age', 'age × city', 'Balance', 'Balance × city', 'city']);
    assert.deepEqual(listTerms(withPairs, '', 'importance').find((t) => t.feature === 'age × city')?.pair, ['age', 'city']);
  });

  it('finds a pair by either feature when the list is searched', () => {
    assert.deepEqual(listTerms(withPairs, 'CITY', 'importance').map((t) => t.feature), ['age × city', 'city', 'Balance × city']);
    assert.deepEqual(listTerms(withPairs, 'bal', 'importance').map((t) => t.feature), ['Balance × city', 'Balance']);
  });

  it('lists only the features of a profile without pairs, as before', () => {
    assert.deepEqual(listTerms(partitionProfile, '', 'importance'), listFeatures(partitionProfile, '', 'importance'));
    assert.equal(pairTerm(partitionProfile, 'age × city'), undefined);
  });

  it('finds the pair term of a list entry', () => {
    assert.equal(pairTerm(withPairs, 'age × city'), interaction);
    assert.equal(pairTerm(withPairs, 'Balance × city')?.importance, 0.1);
    assert.equal(pairTerm(withPairs, 'age'), undefined);
  });

  it('labels numeric bins as ranges, category groups by a few names, and the missing-value bin "missing"', () => {
    const map = pairHeatmap(interaction);
    assert.deepEqual(map.rows.map((r) => [r.label, r.missing]), [['< 30', false], ['≥ 30', false], ['missing', true]]);
    assert.deepEqual(map.columns.map((c) => c.label), ['Paris', 'Lyon, Nice and 2 more', 'missing']);
    assert.equal(map.columns[1].full, 'Lyon, Nice, Lille, Metz');
    assert.equal(axisLabels([{ categories: ['a', 'b', 'c'] }])[0].label, 'a, b, c');
  });

  it('shortens the bounds of the headers to the fewest digits that keep them apart, not of the tooltips', () => {
    const labels = axisLabels([{ lower: null, upper: 25.3627 }, { lower: 25.3627, upper: 107.9648 }, { lower: 107.9648, upper: null }, { missing: true }]);
    assert.deepEqual(labels.map((l) => l.label), ['< 25.4', '25.4 to 108', '≥ 108', 'missing']);
    assert.equal(labels[1].full, '25.3627 to 107.9648');
    const close = axisLabels([{ lower: null, upper: 100.12 }, { lower: 100.12, upper: 100.14 }, { lower: 100.14, upper: null }]);
    assert.deepEqual(close.map((l) => l.label), ['< 100.12', '100.12 to 100.14', '≥ 100.14']);
  });

  it('colours each cell by its score on a scale centred at 0 whose ends are the largest |score|', () => {
    const map = pairHeatmap(interaction);
    assert.deepEqual(map.scale, { low: '-0.8', high: '+0.8' });
    assert.deepEqual(map.cells[2][0], {
      score: 0.8,
      std: 0,
      share: 0,
      strength: 1,
      tone: 'positive',
      empty: true,
      text: 'age missing, city Paris: contribution +0.8, no training rows',
    });
    assert.equal(map.cells[0][1].strength, 0.25);
    assert.equal(map.cells[0][1].tone, 'negative');
    assert.equal(map.cells[0][2].tone, 'zero');
    assert.equal(map.cells[0][2].strength, 0);
    assert.equal(map.cells[1][2].text, 'age ≥ 30, city missing: contribution +0.3, 1.0% of rows');
    assert.equal(map.cells[1][1].text, 'age ≥ 30, city Lyon, Nice, Lille, Metz: contribution +0.05, 18.0% of rows');
  });

  it('sums the map up in words: axes, range and the strongest cells that have rows', () => {
    const { summary } = pairHeatmap(interaction);
    assert.match(summary, /rows are the 3 bins of age, columns the 3 bins of city, each with the missing values last/);
    assert.match(summary, /Contributions from -0\.8 to \+0\.8\./);
    assert.match(
      summary,
      /Strongest cells: age < 30, city Paris: contribution \+0\.4, 30\.0% of rows; age ≥ 30, city missing: contribution \+0\.3, 1\.0% of rows; age < 30, city Lyon, Nice, Lille, Metz: contribution -0\.2, 20\.0% of rows\.$/,
    );
  });

  it('draws an all-zero pair uncoloured', () => {
    const flat = pairHeatmap({ ...interaction, scores: interaction.scores.map((row) => row.map(() => 0)) });
    assert.ok(flat.cells.flat().every((cell) => cell.strength === 0 && cell.tone === 'zero'));
    assert.deepEqual(flat.scale, { low: '0', high: '0' });
    assert.match(flat.summary, /Every contribution is 0\.$/);
  });
});

/** x0 and x1 in [−1, 1]; the target is +1 where their signs agree, −1 where they differ, plus a little of x2. */
function xorFrame(n: number, seed: number): DataFrame {
  const random = mulberry32(seed);
  const x = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (const column of x) column[i] = 2 * random() - 1;
    if (i % 10 === 0) x[1][i] = NaN;
    y[i] = (x[0][i] > 0 === x[1][i] > 0 ? 1 : -1) + 0.5 * x[2][i] + 0.3 * (random() - 0.5);
  }
  return new DataFrame([numberColumn('x0', x[0]), numberColumn('x1', x[1]), numberColumn('x2', x[2]), numberColumn('y', y)]);
}

function xorMap(partition: PartitionProfile): PairHeatmap {
  const entry = listTerms(partition, '', 'importance').find((t) => t.pair);
  assert.equal(entry?.feature, 'x0 × x1');
  const term = pairTerm(partition, entry.feature);
  assert.ok(term);
  return pairHeatmap(term);
}

describe('views: pair heat maps of fitted models', () => {
  it("draws a fitted XOR pair: agreeing signs blue, differing red, x1's missing values as their own column", () => {
    const profile = modelProfile(fitModel(xorFrame(3000, 1), { target: 'y', modelType: 'regressor' }));
    const partition = profile.partitions[0] as PartitionProfile;
    const map = xorMap(partition);
    const [last, lastValue] = [map.rows.length - 2, map.columns.length - 2];
    assert.deepEqual([map.cells[0][0].tone, map.cells[last][lastValue].tone], ['positive', 'positive']);
    assert.deepEqual([map.cells[0][lastValue].tone, map.cells[last][0].tone], ['negative', 'negative']);
    assert.equal(map.columns.at(-1)?.label, 'missing');
    assert.equal(map.rows.at(-1)?.label, 'missing');
    const missingColumnShare = map.cells.reduce((sum, row) => sum + row[row.length - 1].share, 0);
    assert.ok(Math.abs(missingColumnShare - 0.1) < 0.01, `share of rows with x1 missing ${missingColumnShare}`);
    const total = map.cells.flat().reduce((sum, cell) => sum + cell.share, 0);
    assert.ok(Math.abs(total - 1) < 1e-9, `cell shares sum to ${total}`);
    const importances = listTerms(partition, '', 'importance').reduce((sum, t) => sum + t.importance, 0);
    assert.ok(Math.abs(importances - 1) < 1e-9, `features and pairs sum to ${importances}`);
  });

  it('gives each class of a multiclass model its own pairs, picked like its features', () => {
    const base = xorFrame(3000, 2);
    const y = (base.column('y') as { values: Float64Array }).values;
    const codes = Int32Array.from(y, (v) => (v > 0.6 ? 0 : v < -0.6 ? 1 : 2));
    const frame = new DataFrame([base.column('x0'), base.column('x1'), base.column('x2'), categoryColumn('label', codes, ['agree', 'differ', 'between'])]);
    const fitted = fitMulticlass(frame, { target: 'label', modelType: 'classifier' });
    const wire = { version_id: 'v1', ...multiclassProfile(fitted) } as ModelProfile;
    const { profile } = panelProfile(wire);
    const agree = profile.partitions.find((p) => p.partition === 'agree');
    assert.ok(agree?.interactions?.length, 'the class "agree" has pair terms');
    const map = xorMap(agree);
    assert.equal(map.cells[0][0].tone, 'positive');
    const all = profile.partitions.find((p) => p.partition === 'All classes');
    assert.ok(all && listTerms(all, '', 'importance').every((t) => !t.pair), 'the all-classes entry lists features only');
  });
});
