import { strict as assert } from 'node:assert';
import {
  EngineError,
  editModel,
  editMulticlass,
  fitModel,
  fitMulticlass,
  fromPayloads,
  predict,
  refit,
  toPayloads,
  type FeatureModel,
  type StepEdit,
  type TransparentModel,
} from '../../../../src/engine';
import { loadDataset } from '../helpers';

const all = loadDataset('penguins');
const penguins = all.take([...Array(all.nRows).keys()].filter((r) => ['MALE', 'FEMALE'].includes(String(all.value(r, 'Sex')))));
const boosted = fitModel(penguins, { target: 'Sex', modelType: 'classifier', dropColumns: ['Species'] });
const partitioned = fitModel(penguins, { target: 'Body Mass (g)', modelType: 'regressor', partitionOn: 'Island', dropColumns: ['Species'] });
const xplainable = fitModel(penguins, { target: 'Sex', modelType: 'classifier', method: 'xplainable', dropColumns: ['Species'] });

const NUMERIC = 'Flipper Length (mm)';
const CATEGORICAL = 'Island';

const featureOf = (model: TransparentModel, name: string, partition = '__dataset__'): FeatureModel => {
  const f = model.partitions.get(partition)?.features.find((x) => x.name === name);
  assert.ok(f, `${name} in ${partition}`);
  return f;
};
const stepsOf = (model: TransparentModel, name: string, partition?: string) => Array.from(featureOf(model, name, partition).leaves.score);
/** Steps minus their count-weighted mean: what re-centring leaves the same. */
const centred = (steps: number[], count: ArrayLike<number>) => {
  const total = Array.from(count).reduce((a, b) => a + b, 0);
  const mean = steps.reduce((s, v, i) => s + v * count[i], 0) / total;
  return steps.map((v) => v - mean);
};
const close = (a: number[], b: number[], what: string) => a.forEach((v, i) => assert.ok(Math.abs(v - b[i]) < 1e-9, `${what}[${i}]: ${v} vs ${b[i]}`));

function refused(model: TransparentModel, edits: StepEdit[], field: string, message: RegExp): void {
  assert.throws(
    () => editModel(model, edits),
    (error: unknown) =>
      error instanceof EngineError && error.field === field && error.message.startsWith(field.replace(/\.(\d+)\./, '[$1].')) && message.test(error.message),
    `${JSON.stringify(edits)} is refused at ${field}`,
  );
}

describe('engine: hand edits of a model\u2019s steps', () => {
  for (const feature of [NUMERIC, CATEGORICAL]) {
    describe(`${feature} of a boosted classifier`, () => {
      const before = stepsOf(boosted, feature);
      const count = featureOf(boosted, feature).leaves.count;
      const m = before.length - 1;
      const last = Math.min(m - 1, 2);

      it('shift and set change the range, then the feature is re-centred into the base value', () => {
        const { model } = editModel(boosted, [
          { feature, op: 'shift', bins: [0, last], value: 0.5 },
          { feature, op: 'set', bins: 'missing', value: -0.25 },
        ]);
        const expected = before.map((v, i) => (i <= last ? v + 0.5 : i === m ? -0.25 : v));
        const after = stepsOf(model, feature);
        close(after, centred(expected, count), 'steps');
        const shift = after[m + 0] - -0.25;
        close([model.partitions.get('__dataset__')!.baseValue], [boosted.partitions.get('__dataset__')!.baseValue - shift], 'base value');
        const scores = predict(model, penguins).scores;
        const expectedScores = predict(boosted, penguins, { explain: true });
        const rows = Array.from(expectedScores.scores, (s, r) => {
          const leaf = featureOf(boosted, feature).leaves.score.indexOf(expectedScores.contributions![feature][r]);
          return s - before[leaf] + expected[leaf];
        });
        close(Array.from(scores), rows, 'scores: base + steps');
      });

      it('merge makes one step, the count-weighted mean of the range', () => {
        const { model } = editModel(boosted, [{ feature, op: 'merge', bins: [0, last] }]);
        let weighted = 0;
        let total = 0;
        for (let k = 0; k <= last; k++) {
          weighted += count[k] * before[k];
          total += count[k];
        }
        const expected = before.map((v, i) => (i <= last ? weighted / total : v));
        close(stepsOf(model, feature), centred(expected, count), 'steps');
      });

      it('interpolate is linear between the steps at first and last', () => {
        const { model } = editModel(boosted, [{ feature, op: 'interpolate', bins: [0, m - 1] }]);
        const expected = before.map((v, i) => (i < m ? before[0] + ((before[m - 1] - before[0]) * i) / (m - 1) : v));
        close(stepsOf(model, feature), centred(expected, count), 'steps');
      });

      it('monotone makes the range never decrease (or never increase), weighted isotonic', () => {
        for (const direction of [1, -1] as const) {
          const after = stepsOf(editModel(boosted, [{ feature, op: 'monotone', direction }]).model, feature);
          for (let k = 1; k < m; k++) assert.ok(direction * (after[k] - after[k - 1]) >= -1e-12, `direction ${direction}, bin ${k}`);
        }
      });

      it('reset returns the range to the steps the edits started from, leaving the model as it was', () => {
        const { model } = editModel(boosted, [
          { feature, op: 'shift', bins: [0, last], value: 2 },
          { feature, op: 'set', bins: 'missing', value: 1 },
          { feature, op: 'reset', bins: [0, last] },
          { feature, op: 'reset', bins: 'missing' },
        ]);
        assert.deepEqual(stepsOf(model, feature), before);
        assert.equal(model.partitions.get('__dataset__')!.baseValue, boosted.partitions.get('__dataset__')!.baseValue);
      });

      it('remove takes the feature out; its steps were centred, so the base value stays', () => {
        const { model, parts } = editModel(boosted, [{ feature, op: 'remove' }]);
        assert.equal(model.partitions.get('__dataset__')!.features.some((f) => f.name === feature), false);
        assert.equal(model.partitions.get('__dataset__')!.baseValue, boosted.partitions.get('__dataset__')!.baseValue);
        assert.deepEqual(parts.map((p) => [p.partition, p.class, p.features]), [['__dataset__', null, [feature]]]);
      });
    });
  }

  it('an edited boosted feature keeps its steps through the model JSON, and a later refit constrains the edited steps', () => {
    const { model } = editModel(boosted, [{ feature: NUMERIC, op: 'shift', bins: [1, 3], value: 1 }]);
    const back = fromPayloads(toPayloads(model), 'classifier');
    assert.deepEqual(stepsOf(back, NUMERIC), stepsOf(model, NUMERIC));
    assert.deepEqual(Array.from(predict(back, penguins).scores), Array.from(predict(model, penguins).scores));
    const mono = stepsOf(refit(back, { features: [NUMERIC], params: { monotone: 1 } }).model, NUMERIC);
    for (let k = 1; k < mono.length - 1; k++) assert.ok(mono[k] >= mono[k - 1] - 1e-12);
  });

  it('edits one partition of a partitioned model, or every partition when the edit names none and gives no bins', () => {
    const biscoe = stepsOf(partitioned, NUMERIC, 'Biscoe');
    const { model, parts } = editModel(partitioned, [{ feature: NUMERIC, op: 'set', bins: [0, 0], value: 100, partition: 'Biscoe' }]);
    assert.deepEqual(stepsOf(model, NUMERIC, '__dataset__'), stepsOf(partitioned, NUMERIC, '__dataset__'));
    assert.notDeepEqual(stepsOf(model, NUMERIC, 'Biscoe'), biscoe);
    assert.deepEqual(parts.map((p) => p.partition), ['Biscoe']);
    const everywhere = editModel(partitioned, [{ feature: NUMERIC, op: 'monotone', direction: 1 }]);
    assert.deepEqual(everywhere.parts.map((p) => p.partition), [...partitioned.partitions.keys()]);
    refused(partitioned, [{ feature: NUMERIC, op: 'shift', bins: [0, 0], value: 1 }], 'edits.0.partition', /has other bins in partition \w+ than in partition __dataset__/);
    refused(partitioned, [{ feature: NUMERIC, op: 'shift', value: 1, partition: 'Atlantis' }], 'edits.0.partition', /no partition Atlantis; its partitions are: __dataset__, /);
  });

  it('edits one class model of a multiclass model, and checks the class', () => {
    const multi = fitMulticlass(penguins, { target: 'Species', modelType: 'classifier' });
    const gentoo = multi.classes.indexOf('Gentoo');
    const { model, parts } = editMulticlass(multi, [{ feature: NUMERIC, op: 'monotone', direction: -1, class: 'Gentoo' }]);
    model.classModels.forEach((m, k) => {
      if (k === gentoo) assert.notDeepEqual(stepsOf(m, NUMERIC), stepsOf(multi.classModels[k], NUMERIC));
      else assert.equal(m, multi.classModels[k]);
    });
    assert.deepEqual(parts.map((p) => [p.partition, p.class]), [['__dataset__', 'Gentoo']]);
    assert.throws(() => editMulticlass(multi, [{ feature: NUMERIC, op: 'remove', class: 'Emperor' }]), /edits\[0\]\.class: the model has no class Emperor; its classes are: Adelie, Chinstrap, Gentoo/);
    refused(boosted, [{ feature: NUMERIC, op: 'remove', class: 'Adelie' }], 'edits.0.class', /not multiclass/);
  });

  it('xplainable: edits change the scores, not the base value, and a refit of other features keeps them', () => {
    const { model } = editModel(xplainable, [{ feature: NUMERIC, op: 'set', bins: [0, 1], value: 0.05 }]);
    const steps = stepsOf(model, NUMERIC);
    assert.deepEqual(steps.slice(0, 2), [0.05, 0.05]);
    assert.equal(model.partitions.get('__dataset__')!.baseValue, xplainable.partitions.get('__dataset__')!.baseValue);
    const back = fromPayloads(toPayloads(model), 'classifier');
    assert.equal(featureOf(back, NUMERIC).edited, true);
    const refitted = refit(back, { features: ['Beak Length (mm)'], params: { max_depth: 2 } }).model;
    assert.deepEqual(stepsOf(refitted, NUMERIC), steps, 'the edited steps stay through a refit that renormalises the classifier');
    const rebuilt = refit(back, { features: [NUMERIC], params: { max_depth: 2 } }).model;
    assert.equal(featureOf(rebuilt, NUMERIC).edited, false, 'a refit of the feature itself rebuilds it from the statistics');
    refused(xplainable, [{ feature: NUMERIC, op: 'remove' }], 'edits.0.op', /needs a model fitted with the boosted method/);
  });

  it('names the edit and its field of every bad edit', () => {
    const m = featureOf(boosted, NUMERIC).leaves.score.length - 1;
    const cases: [StepEdit, string, RegExp][] = [
      [{ feature: 'Wingspan', op: 'shift', value: 1 }, 'feature', /no feature Wingspan; the model's features are: Island, /],
      [{ feature: NUMERIC, op: 'shift', bins: [0, m], value: 1 }, 'bins', new RegExp(`has ${m} bins besides the missing-value bin, 0 to ${m - 1}, so \\[0, ${m}\\] is out of range`)],
      [{ feature: NUMERIC, op: 'shift', bins: [3, 1], value: 1 }, 'bins', /first bin 3 comes after the last bin 1/],
      [{ feature: NUMERIC, op: 'merge', bins: 'missing' }, 'bins', /missing-value bin has none/],
      [{ feature: NUMERIC, op: 'stretch' as never }, 'op', /"stretch" is no edit/],
      [{ feature: NUMERIC, op: 'set', bins: [0, 1] }, 'value', /set needs a value/],
      [{ feature: NUMERIC, op: 'merge', bins: [0, 1], value: 2 }, 'value', /merge takes no value/],
      [{ feature: NUMERIC, op: 'monotone', direction: 2 as never }, 'direction', /monotone needs direction 1/],
      [{ feature: NUMERIC, op: 'remove', bins: [0, 1] }, 'bins', /leave bins out/],
    ];
    for (const [edit, field, message] of cases) refused(boosted, [{ feature: CATEGORICAL, op: 'reset' }, edit], `edits.1.${field}`, message);
    refused(boosted, [{ feature: NUMERIC, op: 'remove' }, { feature: NUMERIC, op: 'reset' }], 'edits.1.feature', /was removed by edits\[0\]/);
  });
});
