import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XModelsApiError, XModelsClient } from '../../../src/client';
import type { DatasetSummary, TrainResult } from '../../../src/contract';
import { fitModel, parseCsv } from '../../../src/engine';
import { removeDir } from '../service/harness';
import { churnCsv, startLocalService, type LocalService } from './localService';

const isApiError = (check: (e: XModelsApiError) => boolean) => (e: unknown) => e instanceof XModelsApiError && check(e);

describe('client: every operation against the real local service', function () {
  this.timeout(60_000);
  let service: LocalService;
  let client: XModelsClient;
  let dir: string;
  let csvPath: string;
  let trained: TrainResult;
  let summary: DatasetSummary;

  before(async () => {
    service = await startLocalService();
    client = new XModelsClient({ baseUrl: service.url, apiKey: service.api_key });
    dir = mkdtempSync(join(tmpdir(), 'xmodels-client-csv-'));
    csvPath = join(dir, 'churn.csv');
    writeFileSync(csvPath, churnCsv(300));
  });

  after(async () => {
    await client?.close();
    await service?.stop();
    if (dir) removeDir(dir);
  });

  it('health, connect and teams', async () => {
    const health = await client.health();
    assert.equal(health.status, 'ok');
    assert.equal(health.local, true);
    assert.ok(health.features.includes('predict'));
    const info = await client.connect();
    assert.equal(info.team_id, service.team_id);
    const teams = await client.teams();
    assert.ok(teams.some((t) => t.team_id === service.team_id));
  });

  it('trainModel streams file_path as a dataset, then trains on its dataset_id', async () => {
    trained = await client.models.trainModel({ file_path: csvPath, target_column: 'churned', model_name: 'churn', drop_columns: ['customer_id'] });
    assert.equal(trained.model_type, 'binary_classification');
    assert.equal(trained.target_column, 'churned');
    assert.equal(trained.n_train + trained.n_test, 300);
    assert.ok(trained.dataset_id);
    const datasets = await client.datasets.list();
    const uploaded = datasets.find((d) => d.dataset_id === trained.dataset_id);
    assert.equal(uploaded?.name, 'churn.csv');
    assert.equal(uploaded?.rows, 300);
  });

  it('trainModel with file_path leaves no dataset behind when the train fails', async () => {
    const before = (await client.datasets.list()).length;
    await assert.rejects(
      client.models.trainModel({ file_path: csvPath, target_column: 'no_such_column', model_name: 'doomed' }),
      /no_such_column/,
    );
    assert.equal((await client.datasets.list()).length, before);
  });

  it('trainModel with csv_content, with dataset_id as a new version, and with a public dataset_name', async () => {
    const fromText = await client.models.trainModel({ csv_content: churnCsv(120, 3), target_column: 'churned', model_name: 'churn-text', model_type: 'classifier' });
    assert.equal(fromText.n_train + fromText.n_test, 120);
    const again = await client.models.trainModel({ dataset_id: trained.dataset_id as string, target_column: 'churned', model_id: trained.model_id, max_depth: 3 });
    assert.equal(again.model_id, trained.model_id);
    assert.notEqual(again.version_id, trained.version_id);
    const cars = (await client.datasets.listPublic()).find((d) => d.name === 'cars');
    assert.equal(cars?.suggested_target, 'Miles_per_Gallon');
    const fromName = await client.models.trainModel({
      dataset_name: 'cars',
      target_column: 'Miles_per_Gallon',
      model_name: 'mpg',
      model_type: 'regressor',
      drop_columns: ['Name'],
    });
    assert.equal(fromName.model_type, 'regression');
    assert.ok('r2' in fromName.test_metrics);
  });

  it('lists and reads models, versions, partitions, profile, evaluation and feature info', async () => {
    const models = await client.models.listTeamModels();
    assert.ok(models.some((m) => m.model_id === trained.model_id));
    const model = await client.models.getModel(trained.model_id);
    assert.equal(model.number_of_versions, 2);
    const versions = await client.models.listModelVersions(trained.model_id);
    assert.equal(versions.length, 2);
    assert.equal(versions[1].version_id, trained.version_id);
    const partitions = await client.models.listModelVersionPartitions(trained.version_id);
    assert.equal(partitions.partitions[0].partition, '__dataset__');
    const latest = await client.models.listModelVersionPartitions('latest', { model_id: trained.model_id });
    assert.equal(latest.version_id, versions[0].version_id);
    const profile = await client.models.getModelProfile(trained.version_id);
    assert.equal(profile.target_name, 'churned');
    if (profile.model_type === 'multiclass_classification') assert.fail('a two-valued target gives a binary profile');
    assert.ok(Object.keys(profile.partitions[0].numeric).includes('tenure'));
    const evaluation = await client.models.getModelEvaluation(partitions.partitions[0].partition_id);
    assert.ok('accuracy' in evaluation.test);
    const info = await client.models.getFeatureInfo(trained.version_id);
    assert.deepEqual(info.features.map((f) => f.feature).sort(), ['monthly', 'plan', 'region', 'tenure']);
  });

  it('refits a version and predicts from csv_content and from file_path', async () => {
    const refit = await client.models.refitModel(trained.version_id, { dataset_id: trained.dataset_id as string, target_column: 'churned', features: ['tenure'], monotone: 1 });
    assert.equal(refit.parent_version_id, trained.version_id);
    assert.deepEqual(refit.parameters_changed.tenure, { monotone: { from: 0, to: 1 } });
    const rows = 'customer_id,tenure,plan,monthly,region\nx1,2,basic,90,north\nx2,50,pro,25,south\n';
    const predicted = await client.models.predict(refit.version_id, { csv_content: rows, explain: true });
    assert.equal(predicted.n, 2);
    assert.ok(predicted.predictions.every((p) => p === 'yes' || p === 'no'));
    assert.ok(predicted.contributions?.tenure);
    const fromFile = await client.models.predict(refit.version_id, { file_path: csvPath });
    assert.equal(fromFile.n, 300);
  });

  it('previews hand edits, then saves them with refitModel: the same steps and metrics, and the version lists them', async () => {
    assert.ok((await client.health()).features.includes('edits'));
    const edits = [{ feature: 'tenure', op: 'monotone' as const, direction: -1 as const }, { feature: 'plan', op: 'set' as const, bins: [0, 0] as [number, number], value: 0.4 }];
    const rows = { dataset_id: trained.dataset_id as string, target_column: 'churned' };
    const preview = await client.models.previewEdits(trained.version_id, { edits, ...rows });
    assert.deepEqual(preview.before.test_metrics, trained.test_metrics);
    const saved = await client.models.refitModel(trained.version_id, { edits, ...rows });
    assert.deepEqual([saved.train_metrics, saved.test_metrics], [preview.after.train_metrics, preview.after.test_metrics]);
    const profile = await client.models.getModelProfile(saved.version_id);
    if (profile.model_type === 'multiclass_classification') assert.fail('a two-valued target gives a binary profile');
    assert.deepEqual([profile.partitions[0].numeric.tenure, profile.partitions[0].categorical.plan], [preview.features.tenure, preview.features.plan]);
    const [latest] = await client.models.listModelVersions(trained.model_id);
    assert.deepEqual(latest.edits?.map((e) => [e.feature, e.op]), [['tenure', 'monotone'], ['plan', 'set']]);
    await assert.rejects(
      client.models.previewEdits(trained.version_id, { edits: [{ feature: 'tenure', op: 'merge', bins: 'missing' }], ...rows }),
      isApiError((e) => e.status === 422 && /^edits\[0\]\.bins: /.test(e.message)),
    );
  });

  it('uploads a fitted engine model with createModel and addVersion, evaluation included', async () => {
    const frame = parseCsv(churnCsv(200, 11)).drop(['customer_id']);
    const model = fitModel(frame, { target: 'churned', modelType: 'classifier', params: { max_depth: 4 } });
    const x = frame.drop(['churned']);
    const y = frame.column('churned');
    const created = await client.models.createModel({ model, x, y, model_name: 'uploaded', model_description: 'fitted locally' });
    const uploaded = await client.models.getModel(created.model_id);
    assert.deepEqual([uploaded.model_name, uploaded.algorithm, uploaded.model_type], ['uploaded', 'XClassifier', 'binary_classification']);
    const [partition] = (await client.models.listModelVersionPartitions(created.version_id)).partitions;
    assert.equal(partition.n_train, 200);
    const evaluation = await client.models.getModelEvaluation(partition.partition_id);
    assert.ok('accuracy' in evaluation.train && evaluation.train.accuracy !== null && evaluation.train.accuracy > 0.5);
    const added = await client.models.addVersion({ model, x, y, model_id: created.model_id });
    const versions = await client.models.listModelVersions(created.model_id);
    assert.deepEqual(versions.map((v) => v.version_id), [added.version_id, created.version_id]);
    assert.equal(versions[0].source, 'upload');
  });

  it('creates, versions and links preprocessors', async () => {
    const dataset_id = trained.dataset_id as string;
    const created = await client.preprocessors.create({ name: 'clean', dataset_id, steps: [{ type: 'log1p', column: 'monthly' }] });
    const listed = await client.preprocessors.list();
    assert.ok(listed.some((p) => p.preprocessor_id === created.preprocessor_id));
    const added = await client.preprocessors.addVersion(created.preprocessor_id, { steps: [{ type: 'drop_columns', columns: ['region'] }] });
    const versions = await client.preprocessors.listVersions(created.preprocessor_id);
    assert.deepEqual(versions.map((v) => v.version_id).sort(), [created.version_id, added.version_id].sort());
    await client.models.linkPreprocessor({ model_version_id: trained.version_id, preprocessor_version_id: added.version_id });
    const linked = (await client.models.listModelVersions(trained.model_id)).find((v) => v.version_id === trained.version_id);
    assert.deepEqual(linked?.linked_preprocessor, { preprocessor_id: created.preprocessor_id, version_id: added.version_id });
  });

  it('summarizes a file and a dataset id, and generates goals, labels, features, charts and insights', async () => {
    summary = await client.autotrain.summarizeDataset({ file_path: csvPath });
    assert.equal(summary.rows, 300);
    assert.deepEqual(summary.columns, ['customer_id', 'tenure', 'plan', 'monthly', 'region', 'churned']);
    assert.ok(summary.dataset_id);
    const byId = await client.autotrain.summarizeByDatasetId({ dataset_id: trained.dataset_id as string });
    assert.equal(byId.rows, 300);
    const goals = await client.autotrain.generateGoals({ summary, n: 3 });
    assert.equal(goals.goals.length, 3);
    assert.equal(goals.source, 'rules');
    const labels = await client.autotrain.generateLabels({ summary });
    assert.ok(labels.labels.some((l) => l.column === 'churned'));
    const features = await client.autotrain.generateFeatureEngineering({ summary, n: 2 });
    // The rules' two recommendations for this data (n = 2): drop the identifier column, a ratio of two measurements.
    assert.deepEqual(
      features.recommendations.map((r) => [r.feature_name, r.step]),
      [
        ['drop_uninformative_columns', { type: 'drop_columns', columns: ['customer_id'] }],
        ['tenure / monthly', { type: 'ratio', numerator: 'tenure', denominator: 'monthly', name: 'tenure / monthly' }],
      ],
    );
    const chart = await client.autotrain.visualizeData({ summary, goal: goals.goals[0] });
    assert.equal(chart.language, 'python');
    assert.match(chart.code, /def plot\(data/);
    const insights = await client.autotrain.generateInsights({ summary, goal: goals.goals[0] });
    assert.equal(insights.source, 'rules');
    assert.ok(insights.insights.length > 0, 'the rules find at least one insight for the goal');
    for (const insight of insights.insights) {
      assert.ok(insight.columns.every((c) => summary.columns.includes(c)), `${insight.title} names columns of the data`);
    }
    assert.ok(insights.insights.some((i) => i.columns.some((c) => goals.goals[0].columns.includes(c))), 'an insight is about the goal’s columns');
    assert.ok(insights.insights.every((i) => Object.keys(i.evidence).length > 0), 'every insight carries its evidence');
  });

  it('starts autotrain and waits for it; train_manual runs from a preprocessor version', async () => {
    const started = await client.autotrain.startAutotrain({ model_name: 'auto', summary, label: 'churned' });
    assert.equal(started.status, 'pending');
    const seen: string[] = [];
    const done = await client.autotrain.waitForTraining(started.training_id, { interval: 50, onProgress: (s) => seen.push(s.status) });
    assert.equal(done.status, 'completed');
    assert.ok(done.model_id && done.version_id);
    assert.equal(seen.at(-1), 'completed');
    const pre = await client.preprocessors.create({ name: 'manual', dataset_id: summary.dataset_id as string, steps: [{ type: 'drop_columns', columns: ['customer_id'] }] });
    const manual = await client.autotrain.trainManual({ label: 'churned', model_name: 'manual', preprocessor_id: pre.preprocessor_id, version_id: pre.version_id });
    const finished = await client.autotrain.waitForTraining(manual.training_id, { interval: 50 });
    assert.ok(finished.version_id);
  });

  it('cancelling an ended job is a 409 and an unknown job a 404', async () => {
    const started = await client.autotrain.startAutotrain({ model_name: 'ends', summary, label: 'churned' });
    await client.autotrain.waitForTraining(started.training_id, { interval: 50 });
    await assert.rejects(client.autotrain.cancelTraining(started.training_id), isApiError((e) => e.status === 409 && e.code === 'CONFLICT'));
    await assert.rejects(client.autotrain.checkTrainingStatus('no-such-job'), isApiError((e) => e.status === 404 && /no-such-job/.test(e.detail)));
  });

  it('surfaces the service errors: 422 with the field, 404 with the id, 401 without the key', async () => {
    await assert.rejects(
      client.models.trainModel({ dataset_id: trained.dataset_id as string, target_column: 'churned', model_name: 'bad', test_size: 1.5 }),
      isApiError((e) => e.status === 422 && e.code === 'VALIDATION_ERROR' && /1\.5/.test(e.detail) && e.fields.some((f) => f.path === 'test_size')),
    );
    await assert.rejects(
      client.models.trainModel({ dataset_id: trained.dataset_id as string, target_column: 'no_such_column', model_name: 'bad' }),
      isApiError((e) => e.status === 422 && /no_such_column/.test(e.detail)),
    );
    await assert.rejects(client.models.getModel('missing-model'), isApiError((e) => e.status === 404 && /missing-model/.test(e.detail)));
    const wrongKey = 'wrong-key-123456';
    const stranger = new XModelsClient({ baseUrl: service.url, apiKey: wrongKey });
    try {
      await assert.rejects(stranger.teams(), isApiError((e) => e.status === 401 && !e.message.includes(wrongKey)));
    } finally {
      await stranger.close();
    }
  });

  it('deletes a model, after which it is not found', async () => {
    await client.models.deleteModel(trained.model_id);
    await assert.rejects(client.models.getModel(trained.model_id), isApiError((e) => e.status === 404 && e.code === 'NOT_FOUND'));
    const models = await client.models.listTeamModels(service.team_id);
    assert.ok(!models.some((m) => m.model_id === trained.model_id));
  });
});

describe('client: a real local service that refuses new jobs', function () {
  this.timeout(60_000);
  let service: LocalService;
  let client: XModelsClient;
  let retries = 0;

  before(async () => {
    service = await startLocalService(['--max-pending-jobs', '0']);
    client = new XModelsClient({ baseUrl: service.url, apiKey: service.api_key, retry: { baseDelayMs: 1 }, onRetry: () => retries++ });
  });

  after(async () => {
    await client?.close();
    await service?.stop();
  });

  it('passes a 429 on start_autotrain through at once, without retrying the POST', async () => {
    const summary = await client.autotrain.summarizeDataset({ csv_content: churnCsv(60), file_name: 'small.csv' });
    await assert.rejects(
      client.autotrain.startAutotrain({ model_name: 'refused', summary, label: 'churned' }),
      isApiError((e) => e.status === 429 && e.code === 'TOO_MANY_JOBS' && e.detail.length > 0),
    );
    assert.equal(retries, 0);
  });
});
