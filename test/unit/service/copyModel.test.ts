import assert from 'node:assert/strict';
import { XModelsApiError, XModelsClient, type CopyReport, type CopyTarget } from '../../../src/client';
import type { ModelVersion, Predictions } from '../../../src/contract';
import { churnCsv } from '../client/localService';
import { client, removeDir, runCli, startService, storeArgs, type ServiceProcess } from './harness';
import { penguinsCsv } from './fixtures';
import { testCluster } from './postgresCluster';

const TOLERANCE = 1e-9;

/** Every number of two answers equal to 1e-9, every other value equal, at every path. */
function assertClose(actual: unknown, expected: unknown, path = ''): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    assert.ok(Math.abs(actual - expected) <= TOLERANCE, `${path}: ${actual} vs ${expected}`);
  } else if (expected !== null && typeof expected === 'object') {
    assert.ok(actual !== null && typeof actual === 'object', `${path}: ${JSON.stringify(actual)} vs an object`);
    assert.deepEqual(Object.keys(actual as object).sort(), Object.keys(expected).sort(), `${path}: keys`);
    for (const [key, value] of Object.entries(expected)) assertClose((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
  } else {
    assert.deepEqual(actual, expected, path);
  }
}

/** Predictions without their version id, which differs between a version and its copy. */
const predictions = async (c: XModelsClient, versionId: string, csv: string) => {
  const { version_id: _id, ...rest } = (await c.models.predict(versionId, { csv_content: csv, explain: true })) as Predictions;
  return rest;
};

const clientOf = (service: ServiceProcess, apiKey = service.apiKey) => new XModelsClient({ baseUrl: service.url, apiKey });

/** A churn model with three versions: a boosted train on an uploaded dataset, a refit of it, and an xplainable train. */
async function churnModel(c: XModelsClient, name: string) {
  const dataset = await c.datasets.upload({ csv_content: churnCsv(400), name: 'churn.csv' });
  const trained = await c.models.trainModel({ dataset_id: dataset.dataset_id, target_column: 'churned', model_name: name, drop_columns: ['customer_id'] });
  const refit = await c.models.refitModel(trained.version_id, { dataset_id: dataset.dataset_id, target_column: 'churned', features: ['tenure'], smoothing: 3 });
  const xplainable = await c.models.trainModel({ dataset_id: dataset.dataset_id, target_column: 'churned', model_id: trained.model_id, method: 'xplainable', max_depth: 4, drop_columns: ['customer_id'] });
  return { dataset, modelId: trained.model_id, versionIds: [trained.version_id, refit.version_id, xplainable.version_id] };
}

/** The copy holds each source version's metrics, parameters, partitions, evaluations, feature info, profile and predictions. */
async function assertSameVersions(source: XModelsClient, target: XModelsClient, report: CopyReport, rows: string): Promise<void> {
  const copies = await target.models.listModelVersions(report.target.model_id as string);
  const sourceVersions = await source.models.listModelVersions(report.source.model_id);
  for (const outcome of report.versions.filter((v) => v.status === 'copied')) {
    const original = sourceVersions.find((v) => v.version_id === outcome.version_id) as ModelVersion;
    const copy = copies.find((v) => v.version_id === outcome.copy?.version_id) as ModelVersion;
    assert.ok(copy, `v${original.version_number} has its copy`);
    assert.equal(copy.source, original.source);
    assert.deepEqual(copy.parameters, original.parameters);
    assert.deepEqual(copy.test_metrics, original.test_metrics);
    assert.equal(copy.execution, original.execution);
    assert.deepEqual(copy.edits, original.edits);
    assert.deepEqual(copy.copied_from, {
      model_id: report.source.model_id, model_name: report.source.model_name, version_id: original.version_id,
      version_number: original.version_number, created: original.created, created_by: original.created_by,
    });
    const parent = report.versions.find((v) => v.version_id === original.parent_version_id);
    assert.equal(copy.parent_version_id, parent?.copy?.version_id ?? null, `v${original.version_number}'s parent is its parent's copy`);
    const [partsBefore, partsAfter] = await Promise.all([original, copy].map(async (v, i) => (await [source, target][i].models.listModelVersionPartitions(v.version_id)).partitions));
    assert.deepEqual(partsAfter.map(({ partition_id: _p, ...p }) => p), partsBefore.map(({ partition_id: _p, ...p }) => p));
    for (const [i, part] of partsBefore.entries()) {
      const { partition_id: _a, ...before } = await source.models.getModelEvaluation(part.partition_id);
      const { partition_id: _b, ...after } = await target.models.getModelEvaluation(partsAfter[i].partition_id);
      assert.deepEqual(after, before);
    }
    assert.deepEqual((await target.models.getFeatureInfo(copy.version_id)).features, (await source.models.getFeatureInfo(original.version_id)).features);
    const { version_id: _x, ...profileBefore } = await source.models.getModelProfile(original.version_id);
    const { version_id: _y, ...profileAfter } = await target.models.getModelProfile(copy.version_id);
    assert.deepEqual(profileAfter, profileBefore);
    assertClose(await predictions(target, copy.version_id, rows), await predictions(source, original.version_id, rows), `v${original.version_number}`);
  }
}

describe('service: copying a model to another service (client.models.copyTo, import routes, copy-model)', function () {
  this.timeout(180_000);
  let from: ServiceProcess;
  let to: ServiceProcess;
  let source: XModelsClient;
  let target: XModelsClient;
  let churn: Awaited<ReturnType<typeof churnModel>>;
  const rows = churnCsv(60, 99);

  before(async () => {
    // On the PostgreSQL backend the source is a team server: adding a connection through the API must be allowed there.
    [from, to] = await Promise.all([startService({ args: ['--allow-connection-api'] }), startService()]);
    [source, target] = [clientOf(from), clientOf(to)];
    churn = await churnModel(source, 'churn-shared');
  });

  after(async () => {
    await Promise.all([source?.close(), target?.close()]);
    for (const service of [from, to]) {
      await service?.stop();
      if (service) removeDir(service.dataDir);
    }
  });

  it('copies every version with its dataset: the same metrics, evaluations, lineage and predictions there, and a copy refits there as on the source', async () => {
    const churn = await churnModel(source, 'churn');
    const edits = [{ feature: 'tenure', op: 'shift' as const, bins: [0, 2] as [number, number], value: 0.25 }, { feature: 'plan', op: 'set' as const, bins: [1, 1] as [number, number], value: -0.5 }];
    const edited = await source.models.refitModel(churn.versionIds[2], { edits, dataset_id: churn.dataset.dataset_id, target_column: 'churned' });
    const steps: string[] = [];
    const report = await source.models.copyTo(target, churn.modelId, { withDatasets: true, onProgress: (p) => steps.push(`${p.step}/${p.steps} ${p.message}`) });
    assert.deepEqual(steps, ['1/5 dataset churn.csv', '2/5 v1 (train)', '3/5 v2 (refit)', '4/5 v3 (train)', '5/5 v4 (refit)']);
    assert.equal(report.cancelled, false);
    assert.deepEqual(report.target, { model_id: report.target.model_id, model_name: 'churn', created: true });
    assert.deepEqual(report.versions.map((v) => [v.version_number, v.status, v.copy?.version_number, v.left_out]), [
      [1, 'copied', 1, []], [2, 'copied', 2, []], [3, 'copied', 3, []], [4, 'copied', 4, []],
    ]);
    const [dataset] = report.datasets;
    assert.deepEqual({ ...dataset, copy_id: undefined }, { dataset_id: churn.dataset.dataset_id, name: 'churn.csv', size_bytes: churn.dataset.size_bytes, status: 'copied', copy_id: undefined });
    const copiedModel = await target.models.getModel(report.target.model_id as string);
    assert.equal(copiedModel.number_of_versions, 4);
    assert.equal(copiedModel.target_name, 'churned');
    await assertSameVersions(source, target, report, rows);
    const copies = await target.models.listModelVersions(report.target.model_id as string);
    const editedCopy = copies.find((v) => v.copied_from?.version_id === edited.version_id);
    assert.deepEqual(editedCopy?.edits, (await source.models.listModelVersions(churn.modelId)).find((v) => v.version_id === edited.version_id)?.edits);
    assert.deepEqual(editedCopy?.edits?.map(({ applied_at: _at, applied_by: _by, ...edit }) => edit), edits, 'the hand edits travel with their version');
    assert.ok(copies.every((v) => v.dataset_id === dataset.copy_id), 'every copy names the copied dataset');
    const download = await target.datasets.download(dataset.copy_id as string);
    let text = '';
    for await (const chunk of download.content) text += String(chunk);
    assert.equal(text, churnCsv(400), 'the dataset is copied byte for byte');

    // A copy refits there on the copied dataset exactly as its original does on the source.
    const [v1] = report.versions;
    const refit = { target_column: 'churned', features: ['monthly'], smoothing: 5 };
    const there = await target.models.refitModel(v1.copy?.version_id as string, { ...refit, dataset_id: dataset.copy_id as string });
    const here = await source.models.refitModel(v1.version_id, { ...refit, dataset_id: churn.dataset.dataset_id });
    assertClose(there.test_metrics, here.test_metrics, 'refit test metrics');
    assertClose(await predictions(target, there.version_id, rows), await predictions(source, here.version_id, rows), 'refit predictions');
    // The hand-edited xplainable version refits there keeping its edited steps, as it does on the source.
    const v4 = report.versions[3];
    const xplainableRefit = { target_column: 'churned', features: ['monthly'], max_depth: 3 };
    const editedThere = await target.models.refitModel(v4.copy?.version_id as string, { ...xplainableRefit, dataset_id: dataset.copy_id as string });
    const editedHere = await source.models.refitModel(v4.version_id, { ...xplainableRefit, dataset_id: churn.dataset.dataset_id });
    assertClose(editedThere.test_metrics, editedHere.test_metrics, 'refit of the edited version');
    assertClose(await predictions(target, editedThere.version_id, rows), await predictions(source, editedHere.version_id, rows), 'refit of the edited version');
  });

  it('into an existing model copies only the versions an earlier copy did not, each a child of its parent\'s copy', async () => {
    const fresh = await churnModel(source, 'churn-into');
    const first = await source.models.copyTo(target, fresh.modelId, { name: 'churn-team' });
    assert.deepEqual(first.versions.map((v) => v.left_out), [['dataset_id (its dataset was not copied)'], ['dataset_id (its dataset was not copied)'], ['dataset_id (its dataset was not copied)']]);
    assert.deepEqual(first.datasets, []);
    const again = await source.models.copyTo(target, fresh.modelId, { into: first.target.model_id as string });
    assert.deepEqual(again.versions.map((v) => [v.status, v.copy?.version_id]), first.versions.map((v) => ['already_copied', v.copy?.version_id]));
    const v4 = await source.models.refitModel(fresh.versionIds[2], { dataset_id: fresh.dataset.dataset_id, target_column: 'churned', max_depth: 3 });
    const third = await source.models.copyTo(target, fresh.modelId, { into: first.target.model_id as string });
    assert.deepEqual(third.versions.map((v) => v.status), ['already_copied', 'already_copied', 'already_copied', 'copied']);
    const copy = (await target.models.listModelVersions(first.target.model_id as string)).find((v) => v.version_id === third.versions[3].copy?.version_id);
    assert.equal(copy?.version_number, 4);
    assert.equal(copy?.parent_version_id, first.versions[2].copy?.version_id);
    assert.equal(copy?.copied_from?.version_id, v4.version_id);
    assert.equal(copy?.dataset_id, null);
    await assertSameVersions(source, target, third, rows);

    await assert.rejects(source.models.copyTo(target, fresh.modelId, { name: 'churn-team' }), /already has a model named churn-team/);
    const penguins = await source.models.trainModel({ csv_content: penguinsCsv(), target_column: 'Species', model_name: 'penguins', model_type: 'classifier' });
    await assert.rejects(source.models.copyTo(target, penguins.model_id, { into: first.target.model_id as string }), /predicts churned \(binary_classification\) and penguins predicts Species \(multiclass_classification\)/);
    const multiclass = await source.models.copyTo(target, penguins.model_id);
    assert.deepEqual(multiclass.versions.map((v) => v.status), ['copied']);
    await assertSameVersions(source, target, multiclass, penguinsCsv());
  });

  it('cancelling between versions, or while one is stored, leaves whole versions on the target and a report that says which', async () => {
    const stop = new AbortController();
    const between = await source.models.copyTo(target, churn.modelId, {
      name: 'churn-cancelled',
      withDatasets: true,
      signal: stop.signal,
      onProgress: (p) => p.message.startsWith('v2') && stop.abort(),
    });
    assert.equal(between.cancelled, true);
    assert.deepEqual(between.versions.map((v) => v.status), ['copied', 'cancelled', 'cancelled']);
    assert.deepEqual(between.datasets.map((d) => d.status), ['copied']);
    const listed = await target.models.listModelVersions(between.target.model_id as string);
    assert.deepEqual(listed.map((v) => v.version_id), [between.versions[0].copy?.version_id]);
    await assertSameVersions(source, target, between, rows);

    // Cancelled while v2 is being stored: v2 is stored whole and reported so; v3 is not copied.
    const during = new AbortController();
    const slowTarget: CopyTarget = {
      health: (o) => target.health(o),
      datasets: target.datasets,
      models: {
        getModel: (id, o) => target.models.getModel(id, o),
        listTeamModels: (team, o) => target.models.listTeamModels(team, o),
        listModelVersions: (id, o) => target.models.listModelVersions(id, o),
        importModel: (body, o) => target.models.importModel(body, o),
        importVersion: (id, body, o) => {
          if (body.copied_from.version_number === 2) during.abort();
          return target.models.importVersion(id, body, o);
        },
      },
    };
    const report = await source.models.copyTo(slowTarget, churn.modelId, { name: 'churn-cancelled-2', signal: during.signal });
    assert.deepEqual(report.versions.map((v) => v.status), ['copied', 'copied', 'cancelled']);
    const stored = await target.models.listModelVersions(report.target.model_id as string);
    assert.deepEqual(stored.map((v) => v.version_id).sort(), report.versions.flatMap((v) => (v.copy ? [v.copy.version_id] : [])).sort());
    await assertSameVersions(source, target, report, rows);

    // Copying again into the model copies the rest.
    const resumed = await source.models.copyTo(target, churn.modelId, { into: report.target.model_id as string });
    assert.deepEqual(resumed.versions.map((v) => v.status), ['already_copied', 'already_copied', 'copied']);
    assert.equal(resumed.versions[2].copy?.version_number, 3);
  });

  it('a version with a preprocessor is not copied, and the report says why', async () => {
    const created = await source.preprocessors.create({ name: 'logs', dataset_id: churn.dataset.dataset_id, steps: [{ type: 'log1p', column: 'monthly' }] });
    const trained = await source.models.trainModel({
      dataset_id: churn.dataset.dataset_id, target_column: 'churned', model_name: 'with-steps', preprocessor_version_id: created.version_id, drop_columns: ['customer_id'],
    });
    await source.models.refitModel(trained.version_id, { dataset_id: churn.dataset.dataset_id, target_column: 'churned', smoothing: 2 });
    const plain = await source.models.trainModel({ dataset_id: churn.dataset.dataset_id, target_column: 'churned', model_id: trained.model_id, drop_columns: ['customer_id'] });
    await source.models.linkPreprocessor({ model_version_id: plain.version_id, preprocessor_version_id: created.version_id });
    const versions = await source.models.listModelVersions(trained.model_id);
    assert.deepEqual(versions.find((v) => v.version_id === trained.version_id)?.trained_preprocessor, { preprocessor_id: created.preprocessor_id, version_id: created.version_id });
    const report = await source.models.copyTo(target, trained.model_id, { withDatasets: true });
    assert.deepEqual(report.versions.map((v) => v.status), ['skipped', 'skipped', 'skipped']);
    assert.match(report.versions[0].reason as string, new RegExp(`applies preprocessor ${created.preprocessor_id} .* preprocessors are not copied`));
    assert.deepEqual(report.datasets, [], 'no dataset is copied for versions that are not');
    assert.equal(report.target.model_id, null, 'no model is made without a version');
    assert.equal((await target.models.listTeamModels()).some((m) => m.model_name === 'with-steps'), false);
  });

  it('a version fitted where its rows live keeps its execution and source; its dataset stays behind, and the report says why', async () => {
    await source.connections.add({ name: 'files', url: 'duckdb::memory:' });
    const query = 'SELECT range AS x, (range * 7) % 10 AS z, CASE WHEN range % 3 = 0 THEN 1 ELSE 0 END AS y FROM range(300)';
    const dataset = await source.datasets.register({ source: { connection: 'files', query } });
    const trained = await source.models.trainModel({ dataset_id: dataset.dataset_id, target_column: 'y', model_name: 'in-place', execution: 'pushdown' });
    await assert.rejects(source.datasets.download(dataset.dataset_id), (e: unknown) => e instanceof XModelsApiError && e.status === 409 && /connection files/.test(e.detail));
    const report = await source.models.copyTo(target, trained.model_id, { withDatasets: true });
    assert.deepEqual(report.datasets.map((d) => [d.status, d.reason]), [['skipped', 'its rows stay in the database of connection files: register the same table or query there']]);
    assert.deepEqual(report.versions.map((v) => [v.status, v.left_out]), [['copied', ['dataset_id (its dataset was not copied)']]]);
    const [copy] = await target.models.listModelVersions(report.target.model_id as string);
    assert.deepEqual([copy.execution, copy.dataset_source, copy.dataset_id], ['pushdown', { connection: 'files', query }, null]);
    await assertSameVersions(source, target, report, 'x,z\n1,7\n3,1\n299,3\n,\n');
  });

  it('the import routes: a payload the engine cannot read, a partition it does not have or another model\'s parent is a 422 naming the field, and nothing is stored', async () => {
    const call = client(to.url, to.apiKey);
    const payload = await source.models.getModelPayload(churn.versionIds[0]);
    const { version_id: _id, ...wirePayload } = payload;
    const copied_from = { model_id: 'm', model_name: 'churn', version_id: 'v', version_number: 1, created: '2025-01-01T00:00:00.000Z', created_by: 'someone' };
    const valid = {
      model_name: 'imported', payload: wirePayload, source: 'train', parameters: { seed: 42 }, test_metrics: null, feature_info: [],
      partitions: [{ partition: '__dataset__', n_train: 320, n_test: 80, evaluation: null }], copied_from,
    };
    const before = (await call('GET', `/v1/models/teams/${to.teamId}`)).body.length;
    const brokenProfile = structuredClone(valid);
    (brokenProfile.payload.partitions[0].profile as { numeric: Record<string, unknown> }).numeric.tenure = [{ lower: null, upper: 5, score: 'high', mean: 0, freq: 1 }];
    const cases: [unknown, string, RegExp][] = [
      [brokenProfile, 'payload.partitions[0].profile.tenure', /cannot be read/],
      [{ ...valid, partitions: [{ ...valid.partitions[0], partition: 'north' }] }, 'partitions.0.partition', /north, a partition the payload does not have \(it has __dataset__\)/],
      [{ ...valid, parent_version_id: churn.versionIds[0] }, 'parent_version_id', /was not found/],
      [{ ...valid, payload: { ...wirePayload, model_type: 'multiclass_classification' } }, 'payload.partitions.0.class', /every payload of a multiclass_classification model names the class/],
      [{ ...valid, payload: { ...wirePayload, partitions: [{ ...wirePayload.partitions[0], base_value: 'high' }] } }, 'payload.partitions.0.base_value', /./],
      [{ ...valid, copied_from: { ...copied_from, version_number: 0 } }, 'copied_from.version_number', /./],
      [{ ...valid, edit: [] }, 'edit', /unknown field: edit \(did you mean edits\?\)/],
      [{ ...valid, edits: [{ feature: 'tenure', op: 'shift', value: 1 }] }, 'edits.0.applied_at', /./],
    ];
    for (const [body, field, message] of cases) {
      const res = await call('POST', '/v1/models/import', { json: body });
      assert.ok(res.status === 422 || res.status === 404, `${field}: ${res.status} ${JSON.stringify(res.body)}`);
      assert.ok(res.body.error.fields[0].path.startsWith(field), `${res.body.error.fields[0].path} names ${field}`);
      assert.match(res.body.detail, message);
    }
    assert.equal((await call('GET', `/v1/models/teams/${to.teamId}`)).body.length, before, 'nothing was stored');

    const made = await call('POST', '/v1/models/import', { json: valid });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.equal(made.body.version_number, 1);
    const other = await call('POST', '/v1/models/import', { json: { ...valid, model_name: 'other' } });
    const { model_name: _n, ...version } = valid;
    const wrongParent = await call('POST', `/v1/models/${made.body.model_id}/versions/import`, { json: { ...version, parent_version_id: other.body.version_id } });
    assert.equal(wrongParent.status, 422);
    assert.match(wrongParent.body.detail, new RegExp(`Version ${other.body.version_id} is a version of model ${other.body.model_id}`));
    const regressor = await source.models.trainModel({ csv_content: churnCsv(200), target_column: 'monthly', model_name: 'spend', model_type: 'regressor' });
    const { version_id: _r, ...regressorPayload } = await source.models.getModelPayload(regressor.version_id);
    await source.models.deleteModel(regressor.model_id);
    const wrongTarget = await call('POST', `/v1/models/${made.body.model_id}/versions/import`, { json: { ...version, payload: regressorPayload } });
    assert.equal(wrongTarget.status, 422);
    assert.equal(wrongTarget.body.error.fields[0].path, 'payload.target_name');
    const child = await call('POST', `/v1/models/${made.body.model_id}/versions/import`, { json: { ...version, parent_version_id: made.body.version_id } });
    assert.deepEqual([child.status, child.body.version_number], [200, 2]);
  });

  it('keeps teams apart: a key of another team cannot import into a model, name a dataset or read a dataset file of this one', async () => {
    const created = JSON.parse((await runCli(['keys', 'create', ...storeArgs(to), '--team', 'research'])).stdout) as { api_key: string };
    const research = clientOf(to, created.api_key);
    const report = await source.models.copyTo(target, churn.modelId, { name: 'churn-isolated', withDatasets: true });
    const copyId = report.versions[0].copy?.version_id as string;
    const datasetId = report.datasets[0].copy_id as string;
    const body = await importBodyOf(source, churn.versionIds[0]);
    await assert.rejects(research.models.importVersion(report.target.model_id as string, body), (e: unknown) => e instanceof XModelsApiError && e.status === 404);
    await assert.rejects(
      research.models.importModel({ ...body, model_name: 'mine', dataset_id: datasetId }),
      (e: unknown) => e instanceof XModelsApiError && e.status === 404 && e.fields[0]?.path === 'dataset_id',
    );
    await assert.rejects(research.datasets.download(datasetId), (e: unknown) => e instanceof XModelsApiError && e.status === 404);
    await assert.rejects(
      research.models.importModel({ ...body, model_name: 'mine', parent_version_id: copyId }),
      (e: unknown) => e instanceof XModelsApiError && e.status === 404 && e.fields[0]?.path === 'parent_version_id',
    );
    assert.deepEqual(await research.models.listTeamModels(), [], 'nothing was stored for the other team');
    assert.equal((await target.models.listModelVersions(report.target.model_id as string)).length, 3);
    // The same key copies into its own team.
    const own = await source.models.copyTo(research, churn.modelId, { withDatasets: true });
    assert.deepEqual(own.versions.map((v) => v.status), ['copied', 'copied', 'copied']);
    assert.equal((await research.models.listTeamModels())[0].model_id, own.target.model_id);
    await research.close();
  });

  it('copy-model on the command line takes the keys from environment variables and prints the report', async () => {
    const env = { XM_FROM: from.apiKey, XM_TO: to.apiKey };
    const args = ['copy-model', '--from', from.url, '--from-key-env', 'XM_FROM', '--to', to.url, '--to-key-env', 'XM_TO', '--model', churn.modelId];
    const done = await runCli([...args, '--name', 'churn-cli', '--with-datasets'], env);
    assert.equal(done.code, 0, done.stderr);
    const report = JSON.parse(done.stdout) as CopyReport;
    assert.deepEqual(report.versions.map((v) => v.status), ['copied', 'copied', 'copied']);
    assert.deepEqual(report.datasets.map((d) => d.status), ['copied']);
    assert.match(done.stderr, /\[1\/4\] dataset churn\.csv\n.*\[4\/4\] v3 \(train\)/s);
    assert.ok(!done.stdout.includes(from.apiKey) && !done.stderr.includes(to.apiKey), 'no key is printed');
    await assertSameVersions(source, target, report, rows);

    const into = await runCli([...args, '--into', report.target.model_id as string], env);
    assert.equal(into.code, 0, into.stderr);
    assert.deepEqual((JSON.parse(into.stdout) as CopyReport).versions.map((v) => v.status), ['already_copied', 'already_copied', 'already_copied']);

    const unset = await runCli(args, { XM_FROM: from.apiKey, XM_TO: '' });
    assert.equal(unset.code, 2);
    assert.match(unset.stderr, /The environment variable XM_TO \(--to-key-env\) is not set/);
    const onCommandLine = await runCli([...args, '--to-key', to.apiKey], env);
    assert.equal(onCommandLine.code, 2);
    assert.match(onCommandLine.stderr, /Unknown option --to-key/);
    const taken = await runCli([...args, '--name', 'churn-cli'], env);
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /already has a model named churn-cli/);
  });

  it('copies to a team server on PostgreSQL: the same predictions there, and its copies refit there', async () => {
    const database = await (await testCluster()).createDatabase();
    const server = await startService({ database });
    const team = clientOf(server);
    try {
      const report = await source.models.copyTo(team, churn.modelId, { withDatasets: true });
      assert.deepEqual(report.versions.map((v) => v.status), ['copied', 'copied', 'copied']);
      await assertSameVersions(source, team, report, rows);
      const refit = { target_column: 'churned', features: ['plan'], smoothing: 4 };
      const there = await team.models.refitModel(report.versions[1].copy?.version_id as string, { ...refit, dataset_id: report.datasets[0].copy_id as string });
      const here = await source.models.refitModel(churn.versionIds[1], { ...refit, dataset_id: churn.dataset.dataset_id });
      assertClose(there.test_metrics, here.test_metrics, 'refit test metrics');
    } finally {
      await team.close();
      await server.stop();
      removeDir(server.dataDir);
    }
  });
});

/** The import body the copy would send for a version, read from the source with the client. */
async function importBodyOf(c: XModelsClient, versionId: string) {
  const { version_id: _id, ...payload } = await c.models.getModelPayload(versionId);
  const { partitions } = await c.models.listModelVersionPartitions(versionId);
  return {
    payload,
    source: 'train' as const,
    parameters: {},
    test_metrics: null,
    feature_info: [],
    partitions: partitions.map((p) => ({ partition: p.partition, n_train: p.n_train, n_test: p.n_test, evaluation: null })),
    copied_from: { model_id: 'm', model_name: 'churn', version_id: versionId, version_number: 1, created: '2025-01-01T00:00:00.000Z', created_by: 'someone' },
  };
}
