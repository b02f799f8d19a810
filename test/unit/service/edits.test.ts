import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ModelPayloadSchema,
  ModelVersionSchema,
  PredictionsSchema,
  PreviewEditsResultSchema,
  RefitResultSchema,
  type Edit,
  type FeatureBins,
  type ModelVersion,
  type PreviewEditsResult,
} from '../../../src/contract';
import { scoringTablesFromPayload, toPython } from '../../../src/modelExport';
import { assertClassesMatch, assertMatches, runPython, type ScoredClasses } from '../modelExport/exportHarness';
import { DATASETS, useService, type Call } from './harness';
import { penguinsCsv, smallCsv, trainSmall, uploadCsv } from './fixtures';

const carsCsv = () => readFileSync(join(DATASETS, 'cars.csv'), 'utf8');
const NUMERIC = 'Horsepower';
const CATEGORICAL = 'Origin';

type Bins = FeatureBins;
const scores = (bins: Bins) => bins.map((b) => b.score);
/** The steps minus their frequency-weighted mean: what re-centring leaves of them. */
function centred(steps: number[], bins: Bins): number[] {
  const mean = steps.reduce((s, v, i) => s + v * bins[i].freq, 0) / bins.reduce((s, b) => s + b.freq, 0);
  return steps.map((v) => v - mean);
}
function close(actual: number[], expected: number[], what: string): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) < 1e-9, `${what}[${i}]: ${v} vs ${expected[i]}`));
}

describe('service: hand edits of a version\u2019s steps', function () {
  this.timeout(120_000);
  const env = useService();
  let carsId: string;
  let cars: { model_id: string; version_id: string; test_metrics: unknown };
  let profileBins: (versionId: string, feature: string, partition?: string) => Promise<Bins>;

  async function train(call: Call, body: Record<string, unknown>) {
    const res = await call('POST', '/v1/models/train', { json: body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  }
  /** The rows of the cars versions: a refit's and a preview's data fields. */
  const carsRows = () => ({ dataset_id: carsId, target_column: 'Miles_per_Gallon' });
  async function preview(versionId: string, edits: Edit[], rows: Record<string, unknown> = carsRows()): Promise<PreviewEditsResult> {
    const res = await env.call('POST', `/v1/models/versions/${versionId}/preview-edits`, { json: { edits, ...rows } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return PreviewEditsResultSchema.parse(res.body);
  }
  async function versionsOf(modelId: string): Promise<ModelVersion[]> {
    return (await env.call('GET', `/v1/models/versions/${modelId}`)).body.map((v: unknown) => ModelVersionSchema.parse(v));
  }

  before(async () => {
    carsId = await uploadCsv(env.call, carsCsv(), 'cars.csv');
    cars = await train(env.call, { target_column: 'Miles_per_Gallon', model_name: 'cars', dataset_id: carsId, model_type: 'regressor', drop_columns: ['Name', 'Year'] });
    profileBins = async (versionId, feature, partition = '__dataset__') => {
      const profile = (await env.call('GET', `/v1/models/profile/${versionId}`)).body;
      const part = profile.partitions.find((p: { partition: string }) => p.partition === partition);
      return part.numeric[feature] ?? part.categorical[feature] ?? [];
    };
  });

  for (const feature of [NUMERIC, CATEGORICAL]) {
    it(`${feature}: shift, set, interpolate, merge, monotone, reset and remove change the steps as they say, re-centred`, async () => {
      const before = await profileBins(cars.version_id, feature);
      const steps = scores(before);
      const m = steps.length - 1;
      const last = Math.min(2, m - 1);
      const stepsAfter = async (edits: Edit[]) => scores((await preview(cars.version_id, edits)).features[feature]);

      const shifted = steps.map((v, i) => (i <= last ? v + 1.5 : v));
      close(await stepsAfter([{ feature, op: 'shift', bins: [0, last], value: 1.5 }]), centred(shifted, before), 'shift');
      const set = steps.map((v, i) => (i === m ? -2 : v));
      close(await stepsAfter([{ feature, op: 'set', bins: 'missing', value: -2 }]), centred(set, before), 'set on the missing-value bin');

      const line = await stepsAfter([{ feature, op: 'interpolate', bins: [0, m - 1] }]);
      for (let k = 1; k < m - 1; k++) assert.ok(Math.abs(line[k] - (line[0] + ((line[m - 1] - line[0]) * k) / (m - 1))) < 1e-9, `interpolate, bin ${k}`);

      const merged = await stepsAfter([{ feature, op: 'merge', bins: [0, last] }]);
      const weight = before.slice(0, last + 1).reduce((s, b) => s + b.freq, 0);
      const mean = before.slice(0, last + 1).reduce((s, b) => s + b.score * b.freq, 0) / weight;
      close(merged, centred(steps.map((v, i) => (i <= last ? mean : v)), before), 'merge: one step, the weighted mean');
      assert.equal(new Set(merged.slice(0, last + 1)).size, 1, 'merge: one value over the range');

      const monotone = await stepsAfter([{ feature, op: 'monotone', direction: 1 }]);
      for (let k = 1; k < m; k++) assert.ok(monotone[k] >= monotone[k - 1] - 1e-12, `monotone, bin ${k}`);

      const reset = await preview(cars.version_id, [
        { feature, op: 'shift', bins: [0, last], value: 3 },
        { feature, op: 'set', bins: 'missing', value: 1 },
        { feature, op: 'reset' },
      ]);
      assert.deepEqual(reset.features[feature], before, 'reset restores the steps exactly');
      assert.deepEqual(reset.after, reset.before);

      const removed = await preview(cars.version_id, [{ feature, op: 'remove' }]);
      assert.deepEqual(removed.features[feature], []);
      assert.notDeepEqual(removed.after.test_metrics, removed.before.test_metrics);
    });
  }

  it('a refit with the edits saves what the preview showed, exactly, records the edits, and predicts as its exported Python', async () => {
    const edits: Edit[] = [
      { feature: NUMERIC, op: 'monotone', bins: [1, 8], direction: -1 },
      { feature: NUMERIC, op: 'shift', bins: 'missing', value: 0.75 },
      { feature: CATEGORICAL, op: 'set', bins: [1, 1], value: 2 },
      { feature: 'Cylinders', op: 'merge', bins: [0, 1] },
      { feature: 'Acceleration', op: 'remove' },
    ];
    const shown = await preview(cars.version_id, edits);
    assert.deepEqual(Object.keys(shown.features), [NUMERIC, CATEGORICAL, 'Cylinders', 'Acceleration']);
    assert.deepEqual(shown.before.test_metrics, cars.test_metrics, "before: the version's own metrics, on its own split");

    const res = await env.call('POST', `/v1/models/versions/${cars.version_id}/refit`, { json: { edits, ...carsRows() } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const refit = RefitResultSchema.parse(res.body);
    assert.deepEqual([refit.train_metrics, refit.test_metrics], [shown.after.train_metrics, shown.after.test_metrics]);
    for (const feature of [NUMERIC, CATEGORICAL, 'Cylinders']) assert.deepEqual(await profileBins(refit.version_id, feature), shown.features[feature], feature);
    assert.deepEqual(await profileBins(refit.version_id, 'Acceleration'), []);
    const profile = (await env.call('GET', `/v1/models/profile/${refit.version_id}`)).body;
    assert.equal(profile.partitions[0].base_value, shown.parts[0].base_value);

    const [saved, parent] = await versionsOf(cars.model_id);
    assert.equal(saved.version_id, refit.version_id);
    assert.deepEqual([saved.source, saved.parent_version_id, saved.dataset_id], ['refit', cars.version_id, carsId]);
    assert.deepEqual(saved.edits?.map(({ applied_at: _at, applied_by: _by, ...edit }) => edit), edits);
    const { username } = (await env.call('GET', '/v1/client/connect')).body;
    assert.ok(saved.edits?.every((e) => e.applied_by === username && e.applied_at === saved.created), 'who applied them, when the version was made');
    assert.deepEqual(parent.edits, []);
    assert.deepEqual(saved.parameters, parent.parameters, 'edits change steps, not parameters');

    const payload = ModelPayloadSchema.parse((await env.call('GET', `/v1/models/versions/${refit.version_id}/payload`)).body);
    const tables = scoringTablesFromPayload(payload, 'edited cars');
    assert.ok(tables.modelType !== 'multiclass');
    const rows = carsCsv().trim().split('\n').slice(0, 80).join('\n');
    const predicted = await env.call('POST', `/v1/models/versions/${refit.version_id}/predict`, { json: { csv_content: rows, explain: true } });
    assert.equal(predicted.status, 200, JSON.stringify(predicted.body));
    assertMatches(runPython(toPython(tables), rows), PredictionsSchema.parse(predicted.body), tables, 'Python');
  });

  it('an xplainable version: the edits change its scores, the saved version matches the preview and its Python', async () => {
    const trained = await train(env.call, {
      target_column: 'Miles_per_Gallon', model_name: 'cars-x', dataset_id: carsId, model_type: 'regressor', method: 'xplainable', drop_columns: ['Name', 'Year'],
    });
    const edits: Edit[] = [{ feature: NUMERIC, op: 'set', bins: [0, 1], value: 3 }, { feature: CATEGORICAL, op: 'interpolate' }];
    const shown = await preview(trained.version_id, edits);
    assert.deepEqual(scores(shown.features[NUMERIC]).slice(0, 2), [3, 3], 'xplainable steps are not re-centred');
    const refit = (await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, { json: { edits, ...carsRows() } })).body;
    assert.deepEqual([refit.train_metrics, refit.test_metrics], [shown.after.train_metrics, shown.after.test_metrics]);
    assert.deepEqual(await profileBins(refit.version_id, NUMERIC), shown.features[NUMERIC]);
    const tables = scoringTablesFromPayload(ModelPayloadSchema.parse((await env.call('GET', `/v1/models/versions/${refit.version_id}/payload`)).body), 'x');
    const rows = carsCsv().trim().split('\n').slice(0, 60).join('\n');
    const predicted = PredictionsSchema.parse((await env.call('POST', `/v1/models/versions/${refit.version_id}/predict`, { json: { csv_content: rows, explain: true } })).body);
    assert.ok(tables.modelType !== 'multiclass');
    assertMatches(runPython(toPython(tables), rows), predicted, tables, 'Python');
    const removal = await env.call('POST', `/v1/models/versions/${trained.version_id}/preview-edits`, { json: { edits: [{ feature: NUMERIC, op: 'remove' }], ...carsRows() } });
    assert.equal(removal.status, 422);
    assert.equal(removal.body.error.fields[0].path, 'edits.0.op');
    assert.match(removal.body.detail, /^edits\[0\]\.op: removing a feature needs a model fitted with the boosted method/);
  });

  it('edits one class of a multiclass model; the others keep their steps', async () => {
    const datasetId = await uploadCsv(env.call, penguinsCsv(), 'penguins.csv');
    const trained = await train(env.call, { target_column: 'Species', model_name: 'species', dataset_id: datasetId });
    const feature = 'Flipper Length (mm)';
    const edits: Edit[] = [{ feature, op: 'monotone', direction: 1, class: 'Gentoo' }];
    const species = { dataset_id: datasetId, target_column: 'Species' };
    const shown = await preview(trained.version_id, edits, species);
    assert.deepEqual(shown.parts.map((p) => [p.partition, p.class]), [['__dataset__', 'Gentoo']]);
    const refit = RefitResultSchema.parse((await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, { json: { edits, ...species } })).body);
    assert.deepEqual([refit.train_metrics, refit.test_metrics], [shown.after.train_metrics, shown.after.test_metrics]);
    const classBins = async (versionId: string, cls: string) => {
      const profile = (await env.call('GET', `/v1/models/profile/${versionId}`)).body;
      return profile.partitions[0].per_class.find((c: { class: string }) => c.class === cls).numeric[feature] as Bins;
    };
    assert.deepEqual(await classBins(refit.version_id, 'Gentoo'), shown.features[feature]);
    const gentoo = scores(shown.features[feature]).slice(0, -1);
    assert.ok(gentoo.every((v, k) => k === 0 || v >= gentoo[k - 1] - 1e-12));
    for (const cls of ['Adelie', 'Chinstrap']) assert.deepEqual(await classBins(refit.version_id, cls), await classBins(trained.version_id, cls), cls);

    const tables = scoringTablesFromPayload(ModelPayloadSchema.parse((await env.call('GET', `/v1/models/versions/${refit.version_id}/payload`)).body), 'species');
    assert.ok(tables.modelType === 'multiclass');
    const rows = penguinsCsv().trim().split('\n').slice(0, 60).join('\n');
    const predicted = PredictionsSchema.parse((await env.call('POST', `/v1/models/versions/${refit.version_id}/predict`, { json: { csv_content: rows, explain: true } })).body);
    assertClassesMatch(runPython(toPython(tables), rows) as unknown as ScoredClasses[], predicted, tables, 'Python');
  });

  it('edits one partition of a partitioned model; bins without a partition must mean the same bins in each', async () => {
    const trained = await train(env.call, {
      target_column: 'Miles_per_Gallon', model_name: 'cars by origin', dataset_id: carsId, model_type: 'regressor', drop_columns: ['Name', 'Year'], partition_on: 'Origin',
    });
    const edits: Edit[] = [{ feature: NUMERIC, op: 'shift', bins: [0, 1], value: -1, partition: 'Japan' }];
    const shown = await preview(trained.version_id, edits);
    assert.deepEqual(shown.parts.map((p) => p.partition), ['Japan']);
    const refit = (await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, { json: { edits, ...carsRows() } })).body;
    assert.equal(refit.version_id !== undefined, true, JSON.stringify(refit));
    assert.deepEqual(await profileBins(refit.version_id, NUMERIC, 'Japan'), shown.features[NUMERIC]);
    assert.deepEqual(await profileBins(refit.version_id, NUMERIC, '__dataset__'), await profileBins(trained.version_id, NUMERIC, '__dataset__'));
    const baselineOf = async (versionId: string, partition: string) => {
      const parts = (await env.call('GET', `/v1/models/partitions/${versionId}`)).body.partitions;
      const id = parts.find((p: { partition: string }) => p.partition === partition).partition_id;
      return (await env.call('GET', `/v1/models/evaluation/${id}`)).body.baseline;
    };
    const removed = (await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, { json: { edits: [{ feature: NUMERIC, op: 'remove', partition: 'Japan' }], ...carsRows() } })).body;
    assert.deepEqual(Object.keys((await profileBins(removed.version_id, NUMERIC, 'Japan'))), []);
    assert.notDeepEqual(await baselineOf(removed.version_id, 'Japan'), await baselineOf(trained.version_id, 'Japan'), 'the linear baseline of a partition that lost a feature is fitted again');
    assert.deepEqual(await baselineOf(removed.version_id, 'USA'), await baselineOf(trained.version_id, 'USA'));

    const everywhere = await env.call('POST', `/v1/models/versions/${trained.version_id}/preview-edits`, {
      json: { edits: [{ feature: NUMERIC, op: 'shift', bins: [0, 1], value: -1 }], ...carsRows() },
    });
    assert.equal(everywhere.status, 422);
    assert.equal(everywhere.body.error.fields[0].path, 'edits.0.partition');
    assert.match(everywhere.body.detail, /^edits\[0\]\.partition: Horsepower has other bins in partition \w+ than in partition __dataset__/);
  });

  it('answers every bad edit with a 422 naming the edit and its field, and stores nothing', async () => {
    const steps = await profileBins(cars.version_id, NUMERIC);
    const m = steps.length - 1;
    const ok: Edit = { feature: CATEGORICAL, op: 'reset' };
    const cases: [unknown, string, RegExp][] = [
      [{ feature: 'Wingspan', op: 'shift', value: 1 }, 'feature', /^edits\[1\]\.feature: there is no feature Wingspan; the model's features are: /],
      [{ feature: NUMERIC, op: 'shift', bins: [2, m], value: 1 }, 'bins', new RegExp(`^edits\\[1\\]\\.bins: Horsepower has ${m} bins besides the missing-value bin, 0 to ${m - 1}, so \\[2, ${m}\\] is out of range`)],
      [{ feature: NUMERIC, op: 'merge', bins: 'missing' }, 'bins', /^edits\[1\]\.bins: merge works across neighbouring bins, and the missing-value bin has none/],
      [{ feature: NUMERIC, op: 'interpolate', bins: [4, 2] }, 'bins', /the first bin 4 comes after the last bin 2/],
      [{ feature: NUMERIC, op: 'shift', bins: [0, 1] }, 'value', /^edits\[1\]\.value: shift needs a value/],
      [{ feature: NUMERIC, op: 'set' }, 'value', /^edits\[1\]\.value: set needs a value/],
      [{ feature: NUMERIC, op: 'monotone' }, 'direction', /^edits\[1\]\.direction: monotone needs direction 1/],
      [{ feature: NUMERIC, op: 'reset', class: 'Japan' }, 'class', /^edits\[1\]\.class: the model is not multiclass/],
      [{ feature: NUMERIC, op: 'reset', partition: 'Japan' }, 'partition', /^edits\[1\]\.partition: the model has no partition Japan; its partitions are: __dataset__/],
      [{ feature: NUMERIC, op: 'stretch' }, 'op', /^edits\.1\.op /],
      [{ feature: NUMERIC, op: 'shift', bins: [0.5, 2], value: 1 }, 'bins', /^edits\.1\.bins/],
      [{ feature: NUMERIC, op: 'monotone', direction: 0 }, 'direction', /^edits\.1\.direction/],
      [{ feature: NUMERIC, op: 'shift', value: 1, bins: [0, 1], colour: 'red' }, 'colour', /^edits\.1 has an unknown field: colour/],
    ];
    const count = (await versionsOf(cars.model_id)).length;
    for (const [edit, field, detail] of cases) {
      for (const route of ['preview-edits', 'refit']) {
        const res = await env.call('POST', `/v1/models/versions/${cars.version_id}/${route}`, { json: { edits: [ok, edit], ...carsRows() } });
        const what = `${route} ${JSON.stringify(edit)}`;
        assert.equal(res.status, 422, `${what}: ${JSON.stringify(res.body)}`);
        assert.ok(res.body.error.fields[0].path.startsWith(`edits.1.${field}`), `${what}: ${res.body.error.fields[0].path}`);
        assert.match(res.body.detail, detail, what);
      }
    }
    const mixed = await env.call('POST', `/v1/models/versions/${cars.version_id}/refit`, { json: { edits: [ok], ...carsRows(), smoothing: 2 } });
    assert.equal(mixed.status, 422);
    assert.equal(mixed.body.error.fields[0].path, 'smoothing');
    assert.match(mixed.body.detail, /smoothing cannot be given with edits/);
    assert.equal((await versionsOf(cars.model_id)).length, count, 'no refused edit left a version behind');
  });

  it('refit and preview-edits take the same data fields: dataset_id and target_column required (a 422 naming each), test_size', async () => {
    const count = (await versionsOf(cars.model_id)).length;
    const edits: Edit[] = [{ feature: NUMERIC, op: 'shift', bins: [0, 1], value: 0.5 }];
    const cases: [Record<string, unknown>, string[], RegExp][] = [
      [{}, ['dataset_id', 'target_column'], /dataset_id/],
      [{ dataset_id: carsId }, ['target_column'], /target_column/],
      [{ target_column: 'Miles_per_Gallon' }, ['dataset_id'], /dataset_id/],
      [{ ...carsRows(), target_column: 'Horsepower' }, ['target_column'], new RegExp(`^Version ${cars.version_id} predicts Miles_per_Gallon, not Horsepower`)],
      [{ ...carsRows(), dataset_id: 'no-such-dataset' }, ['dataset_id'], /no-such-dataset/],
    ];
    for (const route of ['preview-edits', 'refit']) {
      for (const body of [{ edits }, {}]) {
        if (route === 'preview-edits' && !('edits' in body)) continue;
        for (const [rows, fields, detail] of cases) {
          const res = await env.call('POST', `/v1/models/versions/${cars.version_id}/${route}`, { json: { ...body, ...rows } });
          const what = `${route} ${JSON.stringify({ ...body, ...rows })}`;
          assert.ok([404, 422].includes(res.status), `${what}: ${res.status} ${JSON.stringify(res.body)}`);
          assert.deepEqual(res.body.error.fields.map((f: { path: string }) => f.path), fields, what);
          assert.match(res.body.detail, detail, `${what}: ${res.body.detail}`);
        }
      }
    }
    assert.equal((await versionsOf(cars.model_id)).length, count, 'no refused refit left a version behind');
    const shown = await preview(cars.version_id, edits, { ...carsRows(), test_size: 0.5 });
    const saved = (await env.call('POST', `/v1/models/versions/${cars.version_id}/refit`, { json: { edits, ...carsRows(), test_size: 0.5 } })).body;
    assert.deepEqual([saved.train_metrics, saved.test_metrics], [shown.after.train_metrics, shown.after.test_metrics], 'the same body, the same rows');
    assert.notDeepEqual(shown.before.test_metrics, cars.test_metrics, 'test_size 0.5 splits the rows anew');
  });

  it('computes metrics on the dataset given, a version without a dataset too', async () => {
    const inline = await trainSmall(env.call);
    const edits: Edit[] = [{ feature: 'x', op: 'shift', bins: [0, 1], value: 0.5 }];
    const datasetId = await uploadCsv(env.call, smallCsv(90));
    const shown = await preview(inline.version_id, edits, { dataset_id: datasetId, target_column: 'label' });
    const refit = (await env.call('POST', `/v1/models/versions/${inline.version_id}/refit`, { json: { edits, dataset_id: datasetId, target_column: 'label' } })).body;
    assert.deepEqual([refit.train_metrics, refit.test_metrics], [shown.after.train_metrics, shown.after.test_metrics]);
    const confusion = (shown.before.test_metrics as { confusion_matrix: number[][] }).confusion_matrix.flat().reduce((a, b) => a + b, 0);
    assert.equal(confusion, 18, 'the 20 % test rows of the 90 given');

    // The version's own split: its test_size, or the test dataset it was trained with.
    const trainId = await uploadCsv(env.call, smallCsv(100));
    const testId = await uploadCsv(env.call, smallCsv(40));
    for (const split of [{ test_size: 0.35 }, { test_dataset_id: testId }]) {
      const version = await trainSmall(env.call, { csv_content: undefined, dataset_id: trainId, ...split });
      const rows = { dataset_id: trainId, target_column: 'label' };
      const own = await preview(version.version_id, edits, rows);
      assert.deepEqual(own.before.test_metrics, version.test_metrics, JSON.stringify(split));
      const saved = (await env.call('POST', `/v1/models/versions/${version.version_id}/refit`, { json: { edits, ...rows } })).body;
      const parameters = (await versionsOf(version.model_id))[0].parameters;
      assert.deepEqual([parameters.test_size, parameters.test_dataset_id], 'test_size' in split ? [0.35, undefined] : [null, testId]);
      assert.deepEqual(saved.test_metrics, own.after.test_metrics);
    }
  });
});
