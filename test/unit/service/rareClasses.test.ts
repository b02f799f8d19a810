import assert from 'node:assert/strict';
import { ModelVersionSchema, TrainingStatusSchema, TrainResultSchema } from '../../../src/contract';
import { useService } from './harness';
import { penguinsCsv, strikesCsv, uploadCsv } from './fixtures';

/** Penguins' Sex: MALE, FEMALE, one row '.' and some empty. */
const SEX_ROWS = { all: 344, dot: 1 };

describe('service: classes too rare to train (rare_classes)', function () {
  this.timeout(120_000);
  const env = useService();
  let datasetId: string;

  before(async () => {
    datasetId = await uploadCsv(env.call, penguinsCsv(), 'penguins.csv');
  });

  async function version(modelId: string, versionId: string) {
    const versions = (await env.call('GET', `/v1/models/versions/${modelId}`)).body as unknown[];
    return ModelVersionSchema.array().parse(versions).find((v) => v.version_id === versionId);
  }

  const train = (extra: Record<string, unknown>) =>
    env.call('POST', '/v1/models/train', { json: { target_column: 'Sex', model_name: 'sex', dataset_id: datasetId, model_type: 'classifier', ...extra } });

  it('refuses by default a class with fewer than 2 training rows, naming it, its rows and the way out', async () => {
    const res = await train({});
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.match(
      res.body.error.message,
      /^Sex cannot be trained as a classifier as it is: its class '\.' has 1 row \(\d among the training rows\), and every class needs at least 2 training rows\. Send rare_classes: "drop" to leave out that row, or choose another target_column\.$/,
    );
    assert.deepEqual(res.body.error.fields.map((f: { path: string }) => f.path), ['target_column']);
  });

  it('leaves out the rows of such classes with rare_classes "drop", and the answer and the version say which and how many', async () => {
    const res = await train({ rare_classes: 'drop' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const result = TrainResultSchema.parse(res.body);
    assert.equal(result.model_type, 'binary_classification', 'MALE and FEMALE are left');
    assert.deepEqual(result.dropped_classes, [{ class: '.', rows: 1 }]);
    assert.equal(result.n_train + result.n_test, SEX_ROWS.all - SEX_ROWS.dot, 'the rows without a Sex stay, as in any train');
    assert.match(result.warnings?.[0] ?? '', /^Left out 1 row of Sex's class '\.' \(1 row\): fewer than 2 training rows each \(rare_classes: "drop"\)\.$/);
    const stored = await version(result.model_id, result.version_id);
    assert.equal(stored?.parameters.rare_classes, 'drop');
    assert.deepEqual(stored?.parameters.dropped_classes, [{ class: '.', rows: 1 }]);
  });

  it('keeps a multiclass target multiclass when only some classes are left out, and drops nothing when no class is rare', async () => {
    const csv = ['x,y', ...Array.from({ length: 90 }, (_, i) => `${i},${['a', 'b', 'c'][i % 3]}`), '7,rare'].join('\n');
    let res = await env.call('POST', '/v1/models/train', { json: { target_column: 'y', model_name: 'three', csv_content: csv, rare_classes: 'drop' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.model_type, res.body.classes, res.body.dropped_classes], ['multiclass_classification', ['a', 'b', 'c'], [{ class: 'rare', rows: 1 }]]);
    res = await train({ target_column: 'Species', rare_classes: 'drop' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.dropped_classes, undefined);
    assert.deepEqual((await version(res.body.model_id, res.body.version_id))?.parameters.dropped_classes, []);
  });

  it('refuses a value of rare_classes it does not know, naming the field, and a target that dropping leaves with one class', async () => {
    let res = await train({ rare_classes: 'ignore' });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.deepEqual(res.body.error.fields.map((f: { path: string }) => f.path), ['rare_classes']);
    const csv = ['x,y', ...Array.from({ length: 40 }, (_, i) => `${i},a`), '41,b', '42,c'].join('\n');
    res = await env.call('POST', '/v1/models/train', { json: { target_column: 'y', model_name: 'one', csv_content: csv, rare_classes: 'drop' } });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.match(res.body.error.message, /^Leaving out those 2 rows leaves y fewer than 2 classes to learn \(its class 'b' has 1 row .*'c' has 1 row .*\); choose another target_column\.$/);
  });

  async function summary(csv = penguinsCsv()): Promise<unknown> {
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'data.csv');
    return (await env.call('POST', '/v1/autotrain/summarize-dataset', { body: form })).body;
  }

  async function ended(trainingId: string) {
    for (;;) {
      const status = TrainingStatusSchema.parse((await env.call('GET', `/v1/autotrain/check_training_status?training_id=${trainingId}`)).body);
      if (status.status !== 'pending' && status.status !== 'running') return status;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function finished(trainingId: string) {
    const status = await ended(trainingId);
    assert.equal(status.status, 'completed', JSON.stringify(status));
    return (await version(status.model_id as string, status.version_id as string)) as NonNullable<Awaited<ReturnType<typeof version>>>;
  }

  it('autotrains Sex when asked to leave out its rare class, and says how at request time otherwise', async () => {
    const s = await summary();
    const refused = await env.call('POST', '/v1/autotrain/start_autotrain', { json: { req: { model_name: 'sex', summary: s, label: 'Sex' } } });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.match(refused.body.detail, /its class '\.' has 1 row \(1 among the training rows\).*Send rare_classes: "drop" to leave out that row, or choose another label\./);
    const started = await env.call('POST', '/v1/autotrain/start_autotrain', { json: { req: { model_name: 'sex', summary: s, label: 'Sex', rare_classes: 'drop' } } });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const stored = await finished(started.body.training_id);
    assert.deepEqual([stored.parameters.rare_classes, stored.parameters.dropped_classes], ['drop', [{ class: '.', rows: 1 }]]);
  });

  it('trains the label it picked itself without the rows of its classes too rare to train, unless told to refuse them', async () => {
    const lines = strikesCsv().trimEnd().split('\n');
    lines[18] = lines[18].replace(/[^,]+$/, 'Destroyed');
    const s = await summary(`${lines.join('\n')}\n`);
    const labels = await env.call('POST', '/v1/autotrain/generate_labels', { json: { req: { summary: s } } });
    const top = labels.body.labels[0];
    assert.deepEqual([top.column, top.rare_classes.map((c: { class: string; rows: number }) => [c.class, c.rows])], ['Damage', [['Destroyed', 1]]]);
    const started = await env.call('POST', '/v1/autotrain/start_autotrain', { json: { req: { model_name: 'strikes', summary: s } } });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const stored = await finished(started.body.training_id);
    assert.deepEqual(stored.parameters.dropped_classes, [{ class: 'Destroyed', rows: 1 }]);
    const strict = await env.call('POST', '/v1/autotrain/start_autotrain', { json: { req: { model_name: 'strict', summary: s, rare_classes: 'error' } } });
    const status = await ended(strict.body.training_id);
    assert.equal(status.status, 'failed');
    assert.match(status.error ?? '', /class 'Destroyed' has 1 row/);
  });
});
