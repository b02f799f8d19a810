import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DatasetSchema,
  DatasetSummarySchema,
  FeatureEngineeringResponseSchema,
  GoalsResponseSchema,
  InsightsSchema,
  LabelsResponseSchema,
  PreprocessorVersionSchema,
  PublicDatasetSchema,
  VisualizationResponseSchema,
} from '../../../src/contract';
import { useService } from './harness';
import { smallCsv, trainSmall, uploadCsv } from './fixtures';

describe('service: datasets, preprocessors and the autotrain helpers', function () {
  this.timeout(60_000);
  const env = useService();

  it('uploads CSV as multipart and as text/csv and lists the team datasets newest first', async () => {
    const first = await uploadCsv(env.call, smallCsv(10), 'ten.csv');
    const raw = await env.call('POST', '/v1/datasets?name=twenty', { body: smallCsv(20), contentType: 'text/csv' });
    assert.equal(raw.status, 200, JSON.stringify(raw.body));
    const dataset = DatasetSchema.parse(raw.body);
    assert.equal(dataset.rows, 20);
    assert.deepEqual(dataset.columns, ['x', 'color', 'size', 'label']);
    assert.equal(dataset.size_bytes, Buffer.byteLength(smallCsv(20)));
    const list = (await env.call('GET', '/v1/datasets')).body.map((d: unknown) => DatasetSchema.parse(d));
    assert.deepEqual(list.slice(0, 2).map((d: { name: string }) => d.name), ['twenty', 'ten.csv']);
    assert.equal(list[1].dataset_id, first);
  });

  it('lists the bundled public datasets with trainable suggested targets', async () => {
    const list = (await env.call('GET', '/v1/datasets/public')).body.map((d: unknown) => PublicDatasetSchema.parse(d));
    const flights = list.find((d: { name: string }) => d.name === 'flights-20k');
    assert.equal(flights.rows, 20000);
    assert.equal(flights.suggested_target, 'delay');
    const weather = list.find((d: { name: string }) => d.name === 'weather');
    const trained = await env.call('POST', '/v1/models/train', { json: { target_column: weather.suggested_target, model_name: 'w', dataset_name: 'weather' } });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
  });

  it('creates preprocessors, adds versions, links one to a model version and applies it when predicting', async () => {
    const datasetId = await uploadCsv(env.call, smallCsv(100));
    const created = await env.call('POST', '/v1/preprocessors', {
      json: { name: 'clean', description: 'fills', dataset_id: datasetId, steps: [{ type: 'fill_missing', column: 'x', strategy: 'constant', value: 95 }] },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const added = await env.call('POST', `/v1/preprocessors/${created.body.preprocessor_id}/versions`, { json: { steps: [{ type: 'log1p', column: 'size' }] } });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const versions = (await env.call('GET', `/v1/preprocessors/${created.body.preprocessor_id}/versions`)).body.map((v: unknown) => PreprocessorVersionSchema.parse(v));
    assert.deepEqual(versions.map((v: { version_number: number }) => v.version_number), [2, 1]);
    assert.equal(versions[0].dataset_id, datasetId, 'a version without dataset_id fits on the previous one');
    const list = await env.call('GET', '/v1/preprocessors');
    assert.equal(list.body.find((p: { preprocessor_id: string }) => p.preprocessor_id === created.body.preprocessor_id).versions, 2);

    const model = await trainSmall(env.call);
    const before = await env.call('POST', `/v1/models/versions/${model.version_id}/predict`, { json: { csv_content: 'x,color,size\n,red,3\n' } });
    const link = await env.call('PUT', '/v1/preprocessors/link-preprocessor', { json: { version_id: model.version_id, preprocessor_version_id: created.body.version_id } });
    assert.equal(link.status, 204);
    const linked = (await env.call('GET', `/v1/models/versions/${model.model_id}`)).body[0].linked_preprocessor;
    assert.deepEqual(linked, { preprocessor_id: created.body.preprocessor_id, version_id: created.body.version_id });
    const after = await env.call('POST', `/v1/models/versions/${model.version_id}/predict`, { json: { csv_content: 'x,color,size\n,red,3\n' } });
    const direct = await env.call('POST', `/v1/models/versions/${model.version_id}/predict`, { json: { csv_content: 'x,color,size\n95,red,3\n' } });
    assert.deepEqual(after.body.scores, direct.body.scores, 'the linked fill step replaced the missing x');
    assert.notDeepEqual(before.body.scores, after.body.scores);
  });

  it('trains with a preprocessor version and remembers it for prediction', async () => {
    const datasetId = await uploadCsv(env.call, smallCsv(120));
    const pre = await env.call('POST', '/v1/preprocessors', {
      json: { name: 'drop', dataset_id: datasetId, steps: [{ type: 'drop_columns', columns: ['size'] }] },
    });
    const trained = await env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'pre', dataset_id: datasetId, preprocessor_version_id: pre.body.version_id } });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    assert.deepEqual(trained.body.feature_importances.map((f: { feature: string }) => f.feature).sort(), ['color', 'x']);
    const predicted = await env.call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { csv_content: 'x,color,size\n90,red,3\n' } });
    assert.equal(predicted.status, 200, JSON.stringify(predicted.body));
    assert.deepEqual(predicted.body.warnings, []);
  });

  it('caches the rules part of a summary after upload and serves later summaries from it, computing it for an older dataset', async () => {
    const datasetId = await uploadCsv(env.call, smallCsv(40), 'cached.csv');
    const cache = join(env.service.dataDir, 'datasets', `${datasetId}.summary.json`);
    const summarize = () => env.call('POST', '/v1/autotrain/summarize', { json: { team_id: null, req: { dataset_id: datasetId } } });
    const first = DatasetSummarySchema.parse((await summarize()).body);
    assert.equal(first.rows, 40);
    assert.ok(existsSync(cache), 'the scans started at upload store its summary rules');

    writeFileSync(cache, JSON.stringify({ ...JSON.parse(readFileSync(cache, 'utf8')), rows: 12345 }));
    const fromCache = DatasetSummarySchema.parse((await summarize()).body);
    assert.equal(fromCache.rows, 12345, 'a later summary reads the cache, not the rows');
    assert.match(fromCache.dataset_description, /12345 rows/);

    for (const ext of ['summary.json', 'frame']) rmSync(join(env.service.dataDir, 'datasets', `${datasetId}.${ext}`));
    const older = await summarize();
    assert.equal(older.status, 200, JSON.stringify(older.body));
    assert.deepEqual(DatasetSummarySchema.parse(older.body), first, 'a dataset stored before summaries were cached gets the same summary');
    assert.ok(existsSync(cache), 'and its summary rules are cached on first use');
  });

  it('summarizes an upload and a stored dataset, then answers goals, labels, recommendations, charts and insights', async () => {
    const form = new FormData();
    form.append('file', new Blob([smallCsv(80)], { type: 'text/csv' }), 'shop.csv');
    const res = await env.call('POST', '/v1/autotrain/summarize-dataset', { body: form });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const summary = DatasetSummarySchema.parse(res.body);
    assert.equal(summary.rows, 80);
    assert.ok(summary.dataset_id);
    const datasets = (await env.call('GET', '/v1/datasets')).body;
    assert.ok(datasets.some((d: { dataset_id: string }) => d.dataset_id === summary.dataset_id), 'the upload became a dataset');

    const byId = await env.call('POST', '/v1/autotrain/summarize', { json: { team_id: null, req: { dataset_id: summary.dataset_id } } });
    assert.equal(byId.status, 200);
    assert.deepEqual(byId.body.fields, summary.fields);

    const goals = GoalsResponseSchema.parse((await env.call('POST', '/v1/autotrain/generate_goals', { json: { team_id: null, req: { summary, n: 3, textgen_config: {} } } })).body);
    assert.equal(goals.source, 'rules');
    assert.ok(goals.goals.length > 0 && goals.goals.length <= 3);
    const labels = LabelsResponseSchema.parse((await env.call('POST', '/v1/autotrain/generate_labels', { json: { team_id: null, req: { summary, textgen_config: {} } } })).body);
    assert.ok(labels.labels.some((l) => l.column === 'label'));
    const fe = await env.call('POST', '/v1/autotrain/generate_feature_engineering', { json: { team_id: null, req: { summary, textgen_config: {} } } });
    assert.equal(fe.status, 200, JSON.stringify(fe.body));
    FeatureEngineeringResponseSchema.parse(fe.body);
    const viz = await env.call('POST', '/v1/autotrain/visualize', { json: { team_id: null, req: { summary, goal: goals.goals[0], textgen_config: {} } } });
    assert.equal(viz.status, 200, JSON.stringify(viz.body));
    assert.match(VisualizationResponseSchema.parse(viz.body).code, /def plot\(data/);
    const insights = await env.call('POST', '/v1/autotrain/insights', { json: { team_id: null, req: { summary, goal: goals.goals[0], textgen_config: {} } } });
    assert.equal(insights.status, 200, JSON.stringify(insights.body));
    assert.equal(InsightsSchema.parse(insights.body).goal.question, goals.goals[0].question);
  });
});
