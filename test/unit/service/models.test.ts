import assert from 'node:assert/strict';
import { fitModel, parseCsv, toPayloads } from '../../../src/engine';
import {
  EvaluationSchema,
  FeatureInfoSchema,
  ModelInfoSchema,
  ModelVersionSchema,
  PredictionsSchema,
  ProfileSchema,
  RefitResultSchema,
  TrainResultSchema,
} from '../../../src/contract';
import { useService } from './harness';
import { smallCsv, trainSmall, uploadCsv } from './fixtures';

describe('service: models group', function () {
  this.timeout(60_000);
  const env = useService();

  it('trains a classifier from csv_content and returns the contract TrainResult', async () => {
    const result = TrainResultSchema.parse(await trainSmall(env.call));
    assert.equal(result.model_type, 'binary_classification');
    assert.equal(result.n_train + result.n_test, 120);
    assert.equal(result.partitions[0].partition, '__dataset__');
    const importances = result.feature_importances.map((f) => f.importance);
    assert.deepEqual(importances, [...importances].sort((a, b) => b - a));
    assert.ok('accuracy' in result.test_metrics && (result.test_metrics.accuracy as number) > 0.7);
  });

  it('trains a regressor on a public dataset by name', async () => {
    const res = await env.call('POST', '/v1/models/train', {
      json: { target_column: 'Miles_per_Gallon', model_name: 'mpg', dataset_name: 'cars', model_type: 'regressor', drop_columns: ['Name'] },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.model_type, 'regression');
    assert.ok(res.body.test_metrics.r2 > 0.5);
    assert.equal(res.body.dataset_id, null);
  });

  it('trains with the method a request names, or the xplainable one when it gives only that method\u2019s parameters', async () => {
    const reference = await trainSmall(env.call, { model_name: 'reference', max_depth: 3 });
    const boosted = await trainSmall(env.call, { model_name: 'boosted', min_samples_leaf: 5 });
    const versions = async (modelId: string) => (await env.call('GET', `/v1/models/versions/${modelId}`)).body[0].parameters;
    const tree = await versions(reference.model_id);
    assert.deepEqual([tree.method, tree.max_depth, tree.min_leaf_size], ['xplainable', 3, 0.0001], 'the given value and the engine defaults');
    assert.deepEqual([(await versions(boosted.model_id)).method, (await versions(boosted.model_id)).min_samples_leaf], ['boosted', 5]);

    const before = (await env.call('GET', `/v1/models/teams/${env.service.teamId}`)).body.length;
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ method: 'boosted', max_depth: 3 }, 'max_depth', /max_depth is a parameter of the xplainable method, but this request trains with the boosted method/],
      [{ method: 'xplainable', smoothing: 2 }, 'smoothing', /smoothing is a parameter of the boosted method, but this request trains with the xplainable method/],
      [{ weight: 2, learning_rate: 0.1 }, 'weight', /weight is a parameter of the xplainable method and learning_rate one of the boosted method/],
    ];
    for (const [extra, field, message] of cases) {
      const res = await env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'mixed', csv_content: smallCsv(), ...extra } });
      assert.equal(res.status, 422, JSON.stringify(extra));
      assert.equal(res.body.error.fields[0].path, field);
      assert.match(res.body.error.message, message);
    }
    assert.equal((await env.call('GET', `/v1/models/teams/${env.service.teamId}`)).body.length, before, 'no model left behind');
  });

  it('lists, gets and deletes models, and lists versions newest first with partitions', async () => {
    const first = await trainSmall(env.call, { model_name: 'versioned' });
    const second = await trainSmall(env.call, { model_id: first.model_id, max_leaves: 3 });
    assert.equal(second.model_id, first.model_id);

    const list = await env.call('GET', `/v1/models/teams/${env.service.teamId}`);
    assert.equal(list.status, 200);
    const info = list.body.map((m: unknown) => ModelInfoSchema.parse(m)).find((m: { model_id: string }) => m.model_id === first.model_id);
    assert.equal(info.number_of_versions, 2);
    assert.equal(info.latest_version_id, second.version_id);

    const got = await env.call('GET', `/v1/models/${first.model_id}`);
    assert.equal(got.body.model_name, 'versioned');
    assert.equal(got.body.algorithm, 'XClassifier');

    const versions = await env.call('GET', `/v1/models/versions/${first.model_id}`);
    const parsed = versions.body.map((v: unknown) => ModelVersionSchema.parse(v));
    assert.deepEqual(parsed.map((v: { version_number: number }) => v.version_number), [2, 1]);
    assert.equal(parsed[0].parent_version_id, first.version_id);
    assert.equal(parsed[0].source, 'train');
    assert.equal(parsed[0].parameters.method, 'boosted');
    assert.equal(parsed[0].parameters.max_leaves, 3);
    assert.equal(parsed[1].parameters.max_leaves, 2, 'the small-data default when not given');
    assert.equal(parsed[1].parameters.max_depth, undefined, 'xplainable parameters are not recorded for a boosted version');

    const latest = await env.call('GET', `/v1/models/partitions/latest?model_id=${first.model_id}`);
    assert.equal(latest.status, 200);
    assert.equal(latest.body.version_id, second.version_id);
    assert.equal(latest.body.partitions.length, 1);

    const deleted = await env.call('DELETE', `/v1/models/${first.model_id}`);
    assert.equal(deleted.status, 204);
    assert.equal((await env.call('GET', `/v1/models/${first.model_id}`)).status, 404);
    assert.equal((await env.call('GET', `/v1/models/profile/${second.version_id}`)).status, 404);
  });

  it('serves profile, evaluation and feature info of a partitioned model', async () => {
    const trained = await trainSmall(env.call, { partition_on: 'color' });
    assert.deepEqual(trained.partitions.map((p: { partition: string }) => p.partition).sort(), ['__dataset__', 'blue', 'green', 'red']);
    const profile = ProfileSchema.parse((await env.call('GET', `/v1/models/profile/${trained.version_id}`)).body);
    assert.equal(profile.partitions.length, 4);
    const bins = profile.partitions[0].numeric.x;
    assert.equal(bins[bins.length - 1].missing, true);
    assert.equal(bins[0].lower, null);

    const evaluation = EvaluationSchema.parse((await env.call('GET', `/v1/models/evaluation/${trained.partitions[1].partition_id}`)).body);
    assert.equal(evaluation.partition, trained.partitions[1].partition);
    assert.ok('scores' in evaluation.test && evaluation.test.scores.length === 101);

    const routed = await env.call('POST', `/v1/models/versions/${trained.version_id}/predict`, { json: { csv_content: 'x,color,size\n90,red,3\n90,purple,3\n' } });
    const red = profile.partitions.find((p) => p.partition === 'red');
    assert.deepEqual(routed.body.base_values, [red?.base_value, profile.partitions[0].base_value], 'unseen partition values use __dataset__');
    assert.equal(routed.body.base_value, profile.partitions[0].base_value);

    const info = FeatureInfoSchema.parse((await env.call('GET', `/v1/models/feature-info/${trained.version_id}`)).body);
    assert.deepEqual(info.features.map((f) => f.feature).sort(), ['size', 'x'], 'the partition column is not a feature');
    assert.equal(info.features.find((f) => f.feature === 'x')?.distribution.kind, 'histogram');

    const plain = await trainSmall(env.call);
    const plainInfo = FeatureInfoSchema.parse((await env.call('GET', `/v1/models/feature-info/${plain.version_id}`)).body);
    const color = plainInfo.features.find((f) => f.feature === 'color');
    assert.equal(color?.type, 'categorical');
    assert.equal(color?.distribution.kind, 'categories');
  });

  it('refits an xplainable version with direct parameters and with feature_params, recording the changes', async () => {
    const datasetId = await uploadCsv(env.call, smallCsv());
    const trained = await trainSmall(env.call, { csv_content: undefined, dataset_id: datasetId, method: 'xplainable' });
    const direct = await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, {
      json: { dataset_id: datasetId, target_column: 'label', features: ['x'], max_depth: 2 },
    });
    assert.equal(direct.status, 200, JSON.stringify(direct.body));
    const refit = RefitResultSchema.parse(direct.body);
    assert.equal(refit.parent_version_id, trained.version_id);
    assert.deepEqual(refit.parameters_changed.x.max_depth, { from: 8, to: 2 });
    assert.equal(refit.parameters_changed.size, undefined);

    const perFeature = await env.call('POST', `/v1/models/versions/${refit.version_id}/refit`, {
      json: { dataset_id: datasetId, target_column: 'label', feature_params: { size: { weight: 0.5 } }, max_depth: 1 },
    });
    assert.equal(perFeature.status, 200, JSON.stringify(perFeature.body));
    assert.deepEqual(Object.keys(perFeature.body.parameters_changed), ['size']);
    const smoothing = await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, {
      json: { dataset_id: datasetId, target_column: 'label', feature_params: { x: { smoothing: 2 } } },
    });
    assert.equal(smoothing.status, 422, 'a boosted-method parameter on an xplainable version');
    assert.equal(smoothing.body.error.fields[0].path, 'smoothing');
    assert.match(smoothing.body.error.message, /smoothing cannot be refit on a model fitted with the xplainable method/);
    const versions = await env.call('GET', `/v1/models/versions/${trained.model_id}`);
    assert.equal(versions.body[0].source, 'refit');
    assert.equal(versions.body.length, 3, 'the refused refit left no version behind');
  });

  it('refits a boosted version without data: monotone, smoothing and removed features; tree parameters are a 422 naming the method', async () => {
    const datasetId = await uploadCsv(env.call, smallCsv());
    const trained = await trainSmall(env.call, { csv_content: undefined, dataset_id: datasetId });
    const mono = await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, {
      json: { dataset_id: datasetId, target_column: 'label', features: ['x'], monotone: 1, smoothing: 1 },
    });
    assert.equal(mono.status, 200, JSON.stringify(mono.body));
    assert.deepEqual(RefitResultSchema.parse(mono.body).parameters_changed, { x: { monotone: { from: 0, to: 1 }, smoothing: { from: 0, to: 1 } } });
    assert.deepEqual(mono.body.baseline, trained.baseline, 'a refit keeping the features has the baselines of its parent');
    const profile = await env.call('GET', `/v1/models/profile/${mono.body.version_id}`);
    const steps = profile.body.partitions[0].numeric.x.filter((b: { missing?: boolean }) => !b.missing).map((b: { score: number }) => b.score);
    assert.ok(steps.every((v: number, i: number) => i === 0 || v >= steps[i - 1] - 1e-12), 'x steps never decrease');

    const removed = await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, {
      json: { dataset_id: datasetId, target_column: 'label', remove_features: ['size'] },
    });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(removed.body.feature_importances.map((f: { feature: string }) => f.feature).sort(), ['color', 'x']);
    assert.notDeepEqual(removed.body.baseline.linear, trained.baseline.linear, 'the linear baseline is fitted again without the removed feature');

    const tree = await env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, {
      json: { dataset_id: datasetId, target_column: 'label', features: ['x'], max_depth: 2 },
    });
    assert.equal(tree.status, 422);
    assert.equal(tree.body.error.fields[0].path, 'max_depth');
    assert.match(tree.body.error.message, /max_depth cannot be refit on a model fitted with the boosted method/);
  });

  it('reports the constant and linear baselines and warns in plain words when the model overfits', async () => {
    const trained = TrainResultSchema.parse(await trainSmall(env.call));
    assert.equal((trained.baseline?.constant as { roc_auc: number }).roc_auc, 0.5);
    assert.ok(trained.baseline?.linear && 'roc_auc' in trained.baseline.linear);
    assert.ok(Array.isArray(trained.warnings));
    const partitions = await env.call('GET', `/v1/models/partitions/${trained.version_id}`);
    const evaluation = EvaluationSchema.parse((await env.call('GET', `/v1/models/evaluation/${partitions.body.partitions[0].partition_id}`)).body);
    assert.deepEqual(evaluation.baseline, trained.baseline);

    // Pure noise: the reference method's deep trees memorise the training rows; the warning says so.
    const rows = Array.from({ length: 200 }, (_, i) => `${(i * 7919) % 1000},${(i * 104729) % 997},${((i * 31337) % 1009) / 10}`);
    const noisy = await env.call('POST', '/v1/models/train', {
      json: { target_column: 'y', model_name: 'noise', model_type: 'regressor', method: 'xplainable', csv_content: ['a,b,y', ...rows].join('\n') },
    });
    assert.equal(noisy.status, 200, JSON.stringify(noisy.body));
    assert.ok(
      noisy.body.warnings.some((w: string) => /overfitting|worse than always predicting/.test(w)),
      `warnings: ${JSON.stringify(noisy.body.warnings)}`,
    );
  });

  it('predicts with explanations whose contributions add up to the scores', async () => {
    const trained = await trainSmall(env.call);
    const res = await env.call('POST', `/v1/models/versions/${trained.version_id}/predict`, {
      json: { csv_content: 'x,color,size\n90,red,3\n5,blue,\n', explain: true },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const p = PredictionsSchema.parse(res.body);
    assert.equal(p.n, 2);
    assert.deepEqual(p.predictions, ['yes', 'no']);
    for (let row = 0; row < 2; row++) {
      const terms = [...Object.values(p.contributions ?? {}), ...Object.values(p.interaction_contributions ?? {})];
      const sum = p.base_value + terms.reduce((s, c) => s + c[row], 0);
      assert.ok(Math.abs(sum - (p.scores as number[])[row]) < 1e-9);
    }
    const missing = await env.call('POST', `/v1/models/versions/${trained.version_id}/predict`, { json: { csv_content: 'x\n90\n', threshold: 1 } });
    assert.deepEqual(missing.body.predictions, ['no']);
    assert.ok(missing.body.warnings.some((w: string) => w.includes('color')));
  });

  it('creates a model from uploaded partition payloads and adds a version', async () => {
    const model = fitModel(parseCsv(smallCsv()), { target: 'label', modelType: 'classifier' });
    const payloads = toPayloads(model).map((p) => ({ ...p, profile: JSON.stringify(p.profile) }));
    const created = await env.call('POST', '/v1/models/create', {
      json: { name: 'uploaded', description: 'from payloads', type: 'binary_classification', target_name: 'label', algorithm: 'XClassifier', partitions: payloads },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const added = await env.call('POST', '/v1/models/add-version', { json: { model_id: created.body.model_id, partitions: payloads } });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const versions = await env.call('GET', `/v1/models/versions/${created.body.model_id}`);
    assert.deepEqual(versions.body.map((v: { source: string }) => v.source), ['upload', 'upload']);
    const profile = await env.call('GET', `/v1/models/profile/${added.body.version_id}`);
    assert.equal(profile.status, 200);
    assert.ok(Math.abs(profile.body.partitions[0].base_value - model.partitions.get('__dataset__')!.baseValue) < 1e-12);
    const predicted = await env.call('POST', `/v1/models/versions/${created.body.version_id}/predict`, { json: { csv_content: 'x,color,size\n90,red,3\n' } });
    assert.deepEqual(predicted.body.predictions, ['yes']);
    assert.equal(versions.body[0].parameters.method, 'boosted', 'the payloads say how the model was fitted');

    // The hosted service's payloads name no method: its models are the reference algorithm's.
    const reference = fitModel(parseCsv(smallCsv()), { target: 'label', modelType: 'classifier', method: 'xplainable' });
    const hosted = toPayloads(reference).map(({ parameters, ...p }) => {
      const { method: _method, ...rest } = parameters as Record<string, unknown>;
      return { ...p, parameters: rest, profile: JSON.stringify(p.profile) };
    });
    const fromHosted = await env.call('POST', '/v1/models/add-version', { json: { model_id: created.body.model_id, partitions: hosted } });
    assert.equal(fromHosted.status, 200, JSON.stringify(fromHosted.body));
    const latest = await env.call('GET', `/v1/models/versions/${created.body.model_id}`);
    assert.equal(latest.body[0].parameters.method, 'xplainable');
  });
});
