import assert from 'node:assert/strict';
import {
  TrainingStatusSchema,
  EvaluationSchema,
  HealthSchema,
  ModelInfoSchema,
  ModelProfileSchema,
  PredictionsSchema,
  RefitResultSchema,
  TrainResultSchema,
  type TrainResult,
} from '../../../src/contract';
import { evaluateMulticlassBaselines, parseCsv, trainTestSplit } from '../../../src/engine';
import { useService } from './harness';
import { penguinsCsv, strikesCsv, uploadCsv } from './fixtures';

const SPECIES = ['Adelie', 'Chinstrap', 'Gentoo'];

describe('service: multiclass classification', function () {
  this.timeout(120_000);
  const env = useService();
  let trained: TrainResult;
  let datasetId: string;

  before(async () => {
    datasetId = await uploadCsv(env.call, penguinsCsv(), 'penguins.csv');
    const res = await env.call('POST', '/v1/models/train', {
      json: { target_column: 'Species', model_name: 'species', dataset_id: datasetId, model_type: 'classifier' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    trained = TrainResultSchema.parse(res.body);
  });

  it('trains a classifier on a 3-valued target as multiclass, with its classes and multiclass metrics', () => {
    assert.equal(trained.model_type, 'multiclass_classification');
    assert.deepEqual(trained.classes, SPECIES);
    const test = trained.test_metrics as Record<string, unknown>;
    assert.ok((test.roc_auc as number) > 0.95, `macro AUC ${String(test.roc_auc)}`);
    for (const key of ['roc_auc_weighted', 'log_loss', 'f1', 'precision', 'recall', 'mcc', 'accuracy']) assert.equal(typeof test[key], 'number', key);
    const cm = test.confusion_matrix as { labels: string[]; matrix: number[][] };
    assert.deepEqual(cm.labels, SPECIES);
    assert.equal(
      cm.matrix.flat().reduce((s, v) => s + v, 0),
      trained.n_test,
    );
  });

  it('reports the yardsticks of its test rows: the class shares and one-vs-rest logistic regressions', () => {
    const penguins = parseCsv(penguinsCsv());
    const { train, test } = trainTestSplit(penguins.nRows, 0.2, 42);
    const features = penguins.names.filter((name) => name !== 'Species');
    const expected = evaluateMulticlassBaselines({ target: 'Species', classes: SPECIES, features }, penguins.take(train), penguins.take(test));
    assert.ok(expected?.linear && trained.baseline?.linear);
    for (const [kind, metrics] of [
      ['constant', expected.constant],
      ['linear', expected.linear],
    ] as const) {
      for (const key of ['accuracy', 'log_loss', 'roc_auc'] as const) {
        assert.ok(Math.abs((trained.baseline[kind] as Record<string, number>)[key] - (metrics[key] as number)) < 1e-12, `${kind} ${key}`);
      }
    }
  });

  it('lists the model with its classes and reports multiclass in health', async () => {
    const info = ModelInfoSchema.parse((await env.call('GET', `/v1/models/${trained.model_id}`)).body);
    assert.equal(info.model_type, 'multiclass_classification');
    assert.deepEqual(info.classes, SPECIES);
    const health = HealthSchema.parse((await env.call('GET', '/v1/health')).body);
    assert.ok(health.features.includes('multiclass'));
  });

  it('profiles every class of every partition', async () => {
    const profile = ModelProfileSchema.parse((await env.call('GET', `/v1/models/profile/${trained.version_id}`)).body);
    assert.equal(profile.model_type, 'multiclass_classification');
    if (profile.model_type !== 'multiclass_classification') return;
    assert.deepEqual(profile.classes, SPECIES);
    const whole = profile.partitions[0];
    assert.deepEqual(
      whole.per_class.map((c) => c.class),
      SPECIES,
    );
    assert.ok(Object.keys(whole.per_class[0].numeric).includes('Flipper Length (mm)'));
    // Features and pairs share each class's importance; the overall one is their mean over classes.
    const pairs = whole.per_class.reduce((s, c) => s + (c.interactions ?? []).reduce((t, p) => t + p.importance, 0), 0) / whole.per_class.length;
    const total = whole.feature_importances.reduce((s, f) => s + f.importance, 0) + pairs;
    assert.ok(Math.abs(total - 1) < 1e-9);
  });

  it('evaluates a partition with a K×K confusion matrix and per-class ROC curves', async () => {
    const evaluation = EvaluationSchema.parse((await env.call('GET', `/v1/models/evaluation/${trained.partitions[0].partition_id}`)).body);
    assert.equal(evaluation.model_type, 'multiclass_classification');
    const test = evaluation.test as Record<string, unknown>;
    const perClass = test.per_class as { class: string; roc: { fpr: number[] } }[];
    assert.deepEqual(
      perClass.map((c) => c.class),
      SPECIES,
    );
    assert.ok(perClass.every((c) => c.roc.fpr.length > 1));
    assert.equal((test.confusion_matrix as { matrix: number[][] }).matrix.length, 3);
  });

  it('predicts class labels with probabilities that sum to 1 and, with explain, contributions per class', async () => {
    const csv = ['Island,Beak Length (mm),Beak Depth (mm),Flipper Length (mm),Body Mass (g),Sex', 'Biscoe,47,15,220,5200,MALE', 'Dream,39,19,185,3700,FEMALE', 'Nowhere,,,,,'].join('\n');
    const res = await env.call('POST', `/v1/models/versions/${trained.version_id}/predict`, { json: { csv_content: csv, explain: true } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const out = PredictionsSchema.parse(res.body);
    assert.deepEqual(out.predictions.slice(0, 2), ['Gentoo', 'Adelie']);
    const probs = out.class_probabilities as Record<string, number[]>;
    assert.deepEqual(Object.keys(probs), SPECIES);
    for (let r = 0; r < 3; r++) assert.ok(Math.abs(SPECIES.reduce((s, c) => s + probs[c][r], 0) - 1) < 1e-9);
    assert.ok(out.class_contributions?.Gentoo['Flipper Length (mm)'].length === 3);
    assert.equal(out.probabilities, undefined);
  });

  it('sends the model JSON as every class model\u2019s partitions tagged with their class', async () => {
    const res = await env.call('GET', `/v1/models/versions/${trained.version_id}/payload`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.model_type, 'multiclass_classification');
    const partitions = res.body.partitions as { class: string; classes: string[] }[];
    assert.deepEqual(
      partitions.map((p) => p.class),
      SPECIES,
    );
    assert.deepEqual(partitions[0].classes, SPECIES);
  });

  it('accepts its model JSON back as a new model and as a new version that predict identically', async () => {
    const payload = (await env.call('GET', `/v1/models/versions/${trained.version_id}/payload`)).body;
    const created = await env.call('POST', '/v1/models/create', {
      json: { name: 'species copy', type: 'multiclass_classification', target_name: 'Species', algorithm: 'XClassifier', partitions: payload.partitions },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const added = await env.call('POST', '/v1/models/add-version', { json: { model_id: trained.model_id, partitions: payload.partitions } });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const info = ModelInfoSchema.parse((await env.call('GET', `/v1/models/${created.body.model_id}`)).body);
    assert.deepEqual([info.model_type, info.classes], ['multiclass_classification', SPECIES]);
    const predict = async (versionId: string) =>
      PredictionsSchema.parse((await env.call('POST', `/v1/models/versions/${versionId}/predict`, { json: { dataset_id: datasetId, explain: true } })).body);
    const original = await predict(trained.version_id);
    for (const versionId of [created.body.version_id, added.body.version_id]) {
      const copy = await predict(versionId);
      assert.deepEqual(copy.predictions, original.predictions);
      assert.deepEqual(copy.class_probabilities, original.class_probabilities);
      assert.deepEqual(copy.class_contributions, original.class_contributions);
    }
    const profile = ModelProfileSchema.parse((await env.call('GET', `/v1/models/profile/${created.body.version_id}`)).body);
    assert.equal(profile.model_type, 'multiclass_classification');
  });

  it('refuses a multiclass model JSON that is not one, naming the payload and field', async () => {
    const { partitions } = (await env.call('GET', `/v1/models/versions/${trained.version_id}/payload`)).body as { partitions: Record<string, unknown>[] };
    const create = (type: string, parts: unknown[]) =>
      env.call('POST', '/v1/models/create', { json: { name: 'bad', type, target_name: 'Species', algorithm: 'XClassifier', partitions: parts } });
    const cases: { type: string; parts: unknown[]; path: string; message: RegExp }[] = [
      { type: 'binary_classification', parts: partitions, path: 'partitions.0.class', message: /only for multiclass_classification models/ },
      { type: 'multiclass_classification', parts: partitions.map(({ class: _c, ...p }) => p), path: 'partitions.0.class', message: /partitions\[0\] has no class/ },
      { type: 'multiclass_classification', parts: partitions.slice(0, 2), path: 'partitions.partitions', message: /name 2 class\(es\) \(Adelie, Chinstrap\)/ },
      {
        type: 'multiclass_classification',
        parts: partitions.map((p, i) => (i === 2 ? { ...p, classes: ['Adelie', 'Gentoo'] } : p)),
        path: 'partitions.partitions[2].classes',
        message: /must list the classes of the payloads \(Adelie, Chinstrap, Gentoo\)/,
      },
      {
        type: 'multiclass_classification',
        parts: partitions.map((p, i) => (i === 1 ? { ...p, target_map: { a: 0 } } : p)),
        path: 'partitions.partitions[1].target_map',
        message: /partitions\[1\]\.target_map/,
      },
    ];
    for (const { type, parts, path, message } of cases) {
      const res = await create(type, parts);
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.error.fields[0].path, path, JSON.stringify(res.body));
      assert.match(res.body.error.message, message);
    }
  });

  it('refuses a threshold for a multiclass model, naming the field', async () => {
    const res = await env.call('POST', `/v1/models/versions/${trained.version_id}/predict`, { json: { dataset_id: datasetId, threshold: 0.3 } });
    assert.equal(res.status, 422);
    assert.equal(res.body.error.fields[0].path, 'threshold');
    assert.match(res.body.error.message, /multiclass/);
  });

  it('refits every class model and keeps the model multiclass', async () => {
    const res = await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, {
      json: { dataset_id: datasetId, target_column: 'Species', smoothing: 4 },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const refit = RefitResultSchema.parse(res.body);
    assert.ok(Object.keys(refit.parameters_changed).length > 0);
    assert.ok('roc_auc_weighted' in refit.test_metrics);
    // The same rows and features: the yardsticks are the trained version's.
    assert.deepEqual(refit.baseline, trained.baseline);
  });

  it('refuses over 50 classes naming the count and the most frequent values, and a class with one row naming it', async () => {
    const many = ['x,y', ...Array.from({ length: 200 }, (_, i) => `${i},class${i % 60}`)].join('\n');
    let res = await env.call('POST', '/v1/models/train', { json: { target_column: 'y', model_name: 'many', csv_content: many } });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.match(res.body.error.message, /at most 50 classes; column y has 60 distinct values \(most frequent: class0 \(4\)/);
    const lonely = ['x,y', ...Array.from({ length: 60 }, (_, i) => `${i},${['a', 'b'][i % 2]}`), '7,c', '8,c', '9,rare'].join('\n');
    res = await env.call('POST', '/v1/models/train', { json: { target_column: 'y', model_name: 'lonely', csv_content: lonely, test_size: 0.1 } });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.match(res.body.error.message, /class 'rare' has 1 row \(\d among the training rows\), and every class needs at least 2 training rows\. Send rare_classes: "drop"/);
  });

  async function summarize(csv: string, name: string): Promise<unknown> {
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), name);
    return (await env.call('POST', '/v1/autotrain/summarize-dataset', { body: form })).body;
  }

  async function autotrain(summary: unknown, extra: Record<string, unknown> = {}) {
    const started = await env.call('POST', '/v1/autotrain/start_autotrain', {
      json: { team_id: null, req: { model_name: 'auto', model_description: '', summary, textgen_config: {}, ...extra } },
    });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    let status = TrainingStatusSchema.parse((await env.call('GET', `/v1/autotrain/check_training_status?training_id=${started.body.training_id}`)).body);
    while (status.status === 'pending' || status.status === 'running') {
      await new Promise((r) => setTimeout(r, 100));
      status = TrainingStatusSchema.parse((await env.call('GET', `/v1/autotrain/check_training_status?training_id=${started.body.training_id}`)).body);
    }
    assert.equal(status.status, 'completed', JSON.stringify(status));
    return ModelInfoSchema.parse((await env.call('GET', `/v1/models/${status.model_id}`)).body);
  }

  it('trains a multiclass model from an autotrain job', async () => {
    const info = await autotrain(await summarize(penguinsCsv(), 'penguins.csv'), { label: 'Species', model_type: 'classifier' });
    assert.equal(info.model_type, 'multiclass_classification');
    assert.deepEqual(info.classes, SPECIES);
  });

  it('proposes the four-class damage column of a bird-strike table and trains it when autotrain picks the label itself', async () => {
    const summary = await summarize(strikesCsv(), 'strikes.csv');
    const labels = await env.call('POST', '/v1/autotrain/generate_labels', { json: { req: { summary, textgen_config: {} } } });
    assert.equal(labels.status, 200, JSON.stringify(labels.body));
    assert.deepEqual([labels.body.labels[0].column, labels.body.labels[0].model_type], ['Damage', 'classifier']);
    const info = await autotrain(summary);
    assert.equal(info.target_name, 'Damage');
    assert.equal(info.model_type, 'multiclass_classification');
    assert.deepEqual(info.classes, ['Medium', 'Minor', 'None', 'Substantial']);
  });

  it('refuses at request time a multiclass label with a class too rare to train, naming the class', async () => {
    const summary = await summarize(penguinsCsv(), 'penguins.csv');
    const res = await env.call('POST', '/v1/autotrain/start_autotrain', {
      json: { team_id: null, req: { model_name: 'sex', model_description: '', summary, textgen_config: {}, label: 'Sex' } },
    });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.match(res.body.detail, /label Sex cannot be trained as a classifier: its class '\.' has 1 row \(1 among the training rows\)/);
  });
});
