import { strict as assert } from 'node:assert';
import {
  DataFrame,
  editModel,
  fitModel,
  fromPayloads,
  modelProfile,
  mulberry32,
  numberColumn,
  refit,
  toPayloads,
  type FeatureModel,
  type TransparentModel,
} from '../../../../src/engine';

/** y = 1.5·(signal − 3) plus noise; `noise` has no effect at all. */
function task(n: number, seed: number, classifier = false): DataFrame {
  const random = mulberry32(seed);
  const signal = Float64Array.from({ length: n }, () => random() * 6);
  const noise = Float64Array.from({ length: n }, () => random() * 6);
  const y = Float64Array.from(signal, (s) => {
    const v = 1.5 * (s - 3) + 2 * (random() - 0.5) * 2;
    // A classifier's log-odds at half the scale: steps of ±4.5 log-odds rest on a handful of rows of one class.
    return classifier ? (random() < 1 / (1 + Math.exp(-v / 2)) ? 1 : 0) : v;
  });
  return new DataFrame([numberColumn('signal', signal), numberColumn('noise', noise), numberColumn('y', y)]);
}

function feature(model: TransparentModel, name: string): FeatureModel {
  return model.partitions.get('__dataset__')?.features.find((f) => f.name === name) as FeatureModel;
}

/** The share of a feature's value bins (with rows) whose ±2 standard deviation band holds 0. */
function coverage(f: FeatureModel): number {
  const { score, std, count } = f.leaves;
  let covered = 0;
  let bins = 0;
  for (let b = 0; b < score.length - 1; b++) {
    if (count[b] === 0) continue;
    bins++;
    if (Math.abs(score[b]) <= 2 * (std?.[b] ?? 0)) covered++;
  }
  return covered / bins;
}

describe('the uncertainty of every step: its spread across the bags', function () {
  this.timeout(120_000);

  it('a pure-noise feature’s ±2 std band covers 0 in at least 90% of its bins over several seeds; a strong feature’s extreme bins are clear of 0', () => {
    for (const classifier of [false, true]) {
      const covered: number[] = [];
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const model = fitModel(task(3000, seed, classifier), { target: 'y', modelType: classifier ? 'classifier' : 'regressor', seed });
        covered.push(coverage(feature(model, 'noise')));
        const signal = feature(model, 'signal');
        const valueBins = signal.leaves.score.length - 1;
        const std = signal.leaves.std as Float64Array;
        for (const b of [0, valueBins - 1]) {
          assert.ok(Math.abs(signal.leaves.score[b]) > 2 * std[b], `seed ${seed}: signal bin ${b} ${signal.leaves.score[b]} ± ${2 * std[b]}`);
        }
        assert.ok(std.some((s) => s > 0), 'eight bags differ');
      }
      const mean = covered.reduce((a, b) => a + b, 0) / covered.length;
      assert.ok(mean >= 0.9, `${classifier ? 'classifier' : 'regressor'}: the noise band covers 0 in ${covered.join(', ')} of its bins`);
    }
  });

  it('keeps the spread in the model JSON and the profile, reads a JSON without it as before, and is 0 without bags', () => {
    const frame = task(1500, 7);
    const model = fitModel(frame, { target: 'y', modelType: 'regressor', boost: { outer_bags: 4, interactions: 2 } });
    const payloads = toPayloads(model);
    const json = JSON.stringify(payloads);
    const read = fromPayloads(JSON.parse(json), 'regressor', { target: 'y' });
    assert.equal(JSON.stringify(toPayloads(read)), json, 'reads back bit-identical');
    assert.deepEqual(Array.from(feature(read, 'noise').leaves.std as Float64Array), Array.from(feature(model, 'noise').leaves.std as Float64Array));
    const profile = modelProfile(model).partitions[0];
    assert.deepEqual(profile.numeric.noise.map((b) => b.score_std), Array.from(feature(model, 'noise').leaves.std as Float64Array));
    for (const pair of profile.interactions ?? []) {
      assert.deepEqual(pair.scores_std?.map((row) => row.length), pair.scores.map((row) => row.length));
    }

    const stripped = json.replace(/,"score_std":[^,}]+/g, '').replace(/,"scores_std":\[\[[^a-z]*?\]\]/g, '');
    assert.ok(!stripped.includes('_std'), 'a JSON as written before the spread');
    const old = fromPayloads(JSON.parse(stripped), 'regressor', { target: 'y' });
    assert.equal(JSON.stringify(toPayloads(old)), stripped, 'a JSON without it reads and writes back as it was');
    assert.ok(modelProfile(old).partitions[0].numeric.noise.every((b) => b.score_std === 0));

    const oneBag = fitModel(frame, { target: 'y', modelType: 'regressor', boost: { outer_bags: 1 } });
    assert.ok(modelProfile(oneBag).partitions[0].numeric.signal.every((b) => b.score_std === 0));
    const xplainable = fitModel(frame, { target: 'y', modelType: 'regressor', method: 'xplainable' });
    assert.ok(modelProfile(xplainable).partitions[0].numeric.signal.every((b) => b.score_std === 0));
    assert.ok(!JSON.stringify(toPayloads(xplainable)).includes('score_std'), 'an xplainable model JSON is as before');
  });

  it('keeps the fitted spread through a refit of smoothing and through hand edits', () => {
    const model = fitModel(task(1500, 8), { target: 'y', modelType: 'regressor', boost: { outer_bags: 4 } });
    const fitted = Array.from(feature(model, 'signal').leaves.std as Float64Array);
    const smoothed = refit(model, { params: { smoothing: 3 } }).model;
    assert.deepEqual(Array.from(feature(smoothed, 'signal').leaves.std as Float64Array), fitted);
    const edited = editModel(model, [{ feature: 'signal', op: 'shift', bins: [0, 1], value: 0.5 }]).model;
    assert.notDeepEqual(Array.from(feature(edited, 'signal').leaves.score), Array.from(feature(model, 'signal').leaves.score));
    assert.deepEqual(Array.from(feature(edited, 'signal').leaves.std as Float64Array), fitted);
  });
});
