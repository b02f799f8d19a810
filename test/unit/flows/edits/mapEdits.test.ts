import assert from 'node:assert/strict';
import type { ModelProfile } from '../../../../src/contract';
import type { EditsFile, FileEdit } from '../../../../src/flows/edits/editsFile';
import { editsReportMarkdown, editsToSend } from '../../../../src/flows/edits/editsReport';
import { mapEdits, type MappedEdit } from '../../../../src/flows/edits/mapEdits';
import { model, version } from '../../extension/fixtures';
import { categoryBins, multiclassProfile, numericBins, regressionProfile } from './profiles';

const fileOf = (...edits: FileEdit[]): EditsFile => ({
  format: 'xmodels-edits',
  version: 1,
  source: { model_id: 'm1', model_name: 'spend', target_name: 'spend', version_id: 'v2', version_number: 2, parent_version_id: 'v1' },
  edits,
});
const one = (edit: FileEdit, target: ModelProfile): MappedEdit => mapEdits(fileOf(edit), target, 'v4')[0];

/** Made on age cut at 20, 30, 40 and plans basic, plus, pro. */
const age = (bins: [number, number], bounds: [number | null, number | null][], op: FileEdit['op'] = 'set'): FileEdit => ({
  feature: 'age', op, bins, bounds, ...(op === 'set' || op === 'shift' ? { value: 1 } : {}), ...(op === 'monotone' ? { direction: 1 as const } : {}),
});
const plan = (bins: [number, number], categories: string[], op: FileEdit['op'] = 'shift'): FileEdit => ({
  feature: 'plan', op, bins, categories, ...(op === 'set' || op === 'shift' ? { value: 1 } : {}), ...(op === 'monotone' ? { direction: 1 as const } : {}),
});
const target = (cuts: number[], plans = ['basic', 'plus', 'pro']) =>
  regressionProfile({ __dataset__: { numeric: { age: numericBins(cuts) }, categorical: { plan: categoryBins(plans) } } });

describe('edits of a file put on another version\u2019s bins', () => {
  it('finds a numeric range by its bounds wherever its bins are, and says when the bins inside it differ', () => {
    const made = age([1, 2], [[20, 30], [30, 40]]);
    assert.deepEqual(one(made, target([20, 30, 40])), { index: 0, edit: made, edits: [{ feature: 'age', op: 'set', bins: [1, 2], value: 1 }], notes: [] });
    // A new cut below the range moves its indexes; the bins themselves are the same.
    const moved = one(made, target([10, 20, 30, 40, 50]));
    assert.deepEqual([moved.edits[0].bins, moved.notes, moved.problem], [[2, 3], [], undefined]);
    // The same values over other bins: it still fits, with a note.
    const split = one(made, target([20, 25, 30, 35, 40]));
    assert.deepEqual(split.edits[0].bins, [1, 4]);
    assert.deepEqual(split.notes, ['v4 has 4 bins of age from 20 to 40, not the 2 it was made on: it covers the same values']);
    // The open ends match the open ends.
    assert.deepEqual(one(age([0, 0], [[null, 20]]), target([20, 45])).edits[0].bins, [0, 0]);
    assert.deepEqual(one(age([3, 3], [[40, null]]), target([15, 40])).edits[0].bins, [2, 2]);
  });

  it('does not fit a range whose bounds the target lacks, naming the bound and the nearest ones there', () => {
    const lower = one(age([1, 2], [[20, 30], [30, 40]]), target([22, 30, 40]));
    assert.deepEqual(lower.edits, []);
    assert.equal(lower.problem, 'v4 has no bin of age starting at 20 (the nearest bound there is 22)');
    assert.equal(one(age([1, 2], [[20, 30], [30, 40]]), target([20, 30, 41])).problem, 'v4 has no bin of age ending at 40 (the nearest bounds there are 30 and 41)');
    assert.equal(one(age([3, 3], [[40, null]]), target([])).problem, 'v4 has no bin of age starting at 40');
  });

  it('finds categories by name: one range when they are neighbours in order, runs for bin-by-bin edits, else no fit', () => {
    assert.deepEqual(one(plan([1, 2], ['plus', 'pro']), target([20], ['gold', 'basic', 'plus', 'pro'])).edits.map((e) => e.bins), [[2, 3]]);
    const reordered = target([20], ['plus', 'basic', 'pro']);
    const shift = one(plan([1, 2], ['plus', 'pro']), reordered);
    assert.deepEqual(shift.edits.map((e) => e.bins), [[0, 0], [2, 2]]);
    assert.deepEqual(shift.notes, ['v4 lists the categories of plan as plus, pro, so the edit is sent as 2 ranges']);
    assert.equal(one(plan([1, 2], ['plus', 'pro'], 'interpolate'), reordered).problem, 'v4 lists the categories of plan as plus, pro, and interpolate needs them as neighbours in the order it was made on');
    assert.equal(one(plan([1, 2], ['plus', 'pro'], 'merge'), reordered).problem, 'v4 lists the categories of plan as plus, pro, and merge needs them as neighbours');
    // Neighbours in another order: a merge does not mind, a monotone edit does.
    const swapped = target([20], ['basic', 'pro', 'plus']);
    assert.deepEqual(one(plan([1, 2], ['plus', 'pro'], 'merge'), swapped).edits.map((e) => e.bins), [[1, 2]]);
    assert.match(one(plan([1, 2], ['plus', 'pro'], 'monotone'), swapped).problem ?? '', /monotone needs them as neighbours in the order/);
    assert.equal(one(plan([1, 2], ['plus', 'gold']), target([20])).problem, 'v4 has no category gold of plan');
  });

  it('does not fit an unknown feature, partition or class, or a feature whose kind changed', () => {
    const both = target([20]);
    assert.equal(one({ feature: 'income', op: 'reset' }, both).problem, 'v4 has no feature income; its features are age, plan');
    assert.equal(one({ feature: 'age', op: 'reset', partition: 'north' }, both).problem, 'v4 has no partition north; its partitions are __dataset__');
    assert.equal(one({ feature: 'age', op: 'reset', class: 'Adelie' }, both).problem, 'v4 is not multiclass, so it has no class Adelie');
    assert.equal(one({ ...plan([0, 0], ['basic']), feature: 'age' }, both).problem, 'age is numeric in v4, and the edit was made on categories');
    assert.equal(one({ ...age([0, 0], [[null, 20]]), feature: 'plan' }, both).problem, 'plan is categorical in v4, and the edit was made on numeric bins');
    const penguins = multiclassProfile({ Adelie: { numeric: { age: numericBins([20]) }, categorical: {} }, Gentoo: { numeric: {}, categorical: {} } });
    assert.equal(one({ feature: 'age', op: 'reset', class: 'Chinstrap' }, penguins).problem, 'v4 has no class Chinstrap; its classes are Adelie, Gentoo');
    assert.equal(one({ feature: 'age', op: 'reset', class: 'Gentoo' }, penguins).problem, 'v4 has no feature age for class Gentoo');
  });

  it('sends edits without a range as they are, and a range without values by position, saying so', () => {
    for (const edit of [{ feature: 'age', op: 'reset' }, { feature: 'plan', op: 'set', bins: 'missing', value: 2 }, { feature: 'plan', op: 'remove' }] as FileEdit[]) {
      assert.deepEqual(one(edit, target([20])), { index: 0, edit, edits: [edit], notes: [] });
    }
    const byPosition = one({ feature: 'age', op: 'merge', bins: [0, 1] }, target([20]));
    assert.deepEqual(byPosition.edits, [{ feature: 'age', op: 'merge', bins: [0, 1] }]);
    assert.deepEqual(byPosition.notes, ['the file gives no values for its bins, so it changes bins [0, 1] of v4 by position']);
  });

  it('sends one edit over every part with the same bins, and one per part (naming it) when their bins differ', () => {
    const same = regressionProfile({
      __dataset__: { numeric: { age: numericBins([20, 30]) }, categorical: {} },
      north: { numeric: { age: numericBins([20, 30]) }, categorical: {} },
    });
    assert.deepEqual(one(age([1, 1], [[20, 30]]), same).edits, [{ feature: 'age', op: 'set', bins: [1, 1], value: 1 }]);
    const differ = regressionProfile({
      __dataset__: { numeric: { age: numericBins([20, 30]) }, categorical: {} },
      north: { numeric: { age: numericBins([10, 20, 30]) }, categorical: {} },
      south: { numeric: {}, categorical: {} },
    });
    assert.deepEqual(one(age([1, 1], [[20, 30]]), differ).edits, [
      { feature: 'age', op: 'set', bins: [1, 1], value: 1, partition: '__dataset__' },
      { feature: 'age', op: 'set', bins: [2, 2], value: 1, partition: 'north' },
    ]);
    const oneLacks = regressionProfile({
      a: { numeric: { age: numericBins([20, 30]) }, categorical: {} },
      b: { numeric: { age: numericBins([25, 30]) }, categorical: {} },
    });
    assert.equal(one(age([1, 1], [[20, 30]]), oneLacks).problem, 'v4 has no bin of age starting at 20 (the nearest bound there is 25) in partition b');
    const penguins = multiclassProfile({
      Adelie: { numeric: { age: numericBins([20, 30]) }, categorical: {} },
      Gentoo: { numeric: { age: numericBins([20, 25, 30]) }, categorical: {} },
    });
    const perClass = one(age([1, 1], [[20, 30]]), penguins);
    assert.deepEqual(perClass.edits, [
      { feature: 'age', op: 'set', bins: [1, 1], value: 1, class: 'Adelie' },
      { feature: 'age', op: 'set', bins: [1, 2], value: 1, class: 'Gentoo' },
    ]);
    assert.deepEqual(perClass.notes, ['v4 has 2 bins of age from 20 to 30, not the 1 it was made on: it covers the same values for class Gentoo']);
  });

  it('reports every edit: those that do not fit first with why, then those that fit with where they land', () => {
    const file = fileOf(age([1, 2], [[20, 30], [30, 40]], 'shift'), { feature: 'income', op: 'reset' }, plan([1, 2], ['plus', 'pro']));
    const mapped = mapEdits(file, target([20, 30, 45], ['plus', 'basic', 'pro']), 'v4');
    assert.deepEqual(editsToSend(mapped), [{ feature: 'plan', op: 'shift', bins: [0, 0], value: 1 }, { feature: 'plan', op: 'shift', bins: [2, 2], value: 1 }]);
    const report = editsReportMarkdown({ fileName: 'spend-v2.edits.json', file, model: model({ model_name: 'spend' }), version: version({ version_number: 4, version_id: 'v4' }), mapped });
    assert.equal(report, [
      '# Edits from spend-v2.edits.json on spend v4',
      '',
      'Made on spend v2 (`v2`); applied to v4 (`v4`): 1 of 3 edits fit.',
      '',
      '## Edits that do not fit (2)',
      '',
      '- 1. shift age \\(20 to 40\\) by 1: v4 has no bin of age ending at 40 \\(the nearest bounds there are 30 and 45\\).',
      '- 2. reset income \\(every bin\\): v4 has no feature income; its features are age, plan.',
      '',
      '## Edits that fit (1)',
      '',
      '- 3. shift plan \\(plus, pro\\) by 1 → bins \\[0, 0\\] and \\[2, 2\\].',
      '  - v4 lists the categories of plan as plus, pro, so the edit is sent as 2 ranges.',
      '',
    ].join('\n'));
  });
});
