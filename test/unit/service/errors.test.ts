import assert from 'node:assert/strict';
import { ErrorBodySchema } from '../../../src/contract';
import { useService, type ApiResponse } from './harness';
import { smallCsv, trainSmall, uploadCsv } from './fixtures';

/** Every error has the contract's body; `detail` must mention `mentions`. */
function assertError(res: ApiResponse, status: number, code: string, mentions: string[] = []): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  const body = ErrorBodySchema.parse(res.body);
  assert.equal(body.error.code, code);
  assert.equal(body.error.message, body.detail);
  for (const m of mentions) assert.ok(body.detail.includes(m), `detail "${body.detail}" should mention ${m}`);
}

describe('service: bad input gives the contract errors, never a 500', function () {
  this.timeout(60_000);
  const env = useService(['--upload-limit-mb', '0.01']);
  let trained: { model_id: string; version_id: string; partitions: { partition_id: string }[] };
  let datasetId: string;

  before(async () => {
    trained = await trainSmall(env.call);
    datasetId = await uploadCsv(env.call, smallCsv(60));
  });

  const train = (json: Record<string, unknown>) => env.call('POST', '/v1/models/train', { json: { model_name: 'm', target_column: 'label', ...json } });

  it('401 without a key or with an unknown key; health and openapi need none', async () => {
    assertError(await env.call('GET', '/v1/teams', { key: null }), 401, 'UNAUTHORIZED', ['API key']);
    assertError(await env.call('GET', '/v1/teams', { key: 'xm_nope' }), 401, 'UNAUTHORIZED');
    const bearer = await env.call('GET', '/v1/teams', { key: null, headers: { authorization: `Bearer ${env.service.apiKey}` } });
    assert.equal(bearer.status, 200);
    assert.equal((await env.call('GET', '/v1/health', { key: null })).status, 200);
    const openapi = await env.call('GET', '/v1/openapi.json', { key: null });
    assert.equal(openapi.body.openapi, '3.1.0');
    assert.ok(openapi.body.paths['/v1/models/train'].post.requestBody);
  });

  it('400 for malformed JSON and a wrong content type', async () => {
    assertError(await env.call('POST', '/v1/models/train', { body: '{"target_column": ', contentType: 'application/json' }), 400, 'BAD_REQUEST', ['JSON']);
    assertError(await env.call('POST', '/v1/models/train', { body: 'a=b', contentType: 'application/x-www-form-urlencoded' }), 400, 'BAD_REQUEST', ['application/x-www-form-urlencoded']);
    assertError(await env.call('POST', '/v1/datasets', { body: '<csv/>', contentType: 'application/xml' }), 400, 'BAD_REQUEST', ['multipart/form-data']);
    // JSON registers a table or query of a connection: without a source it is a 422 naming it.
    assertError(await env.call('POST', '/v1/datasets', { body: '{}', contentType: 'application/json' }), 422, 'VALIDATION_ERROR', ['source']);
  });

  it('422 naming the field and value for schema violations', async () => {
    const res = await train({ csv_content: smallCsv(), test_size: 1.5 });
    assertError(res, 422, 'VALIDATION_ERROR', ['test_size', '1.5']);
    assert.equal(res.body.error.fields[0].path, 'test_size');
    assertError(await train({ csv_content: smallCsv(), model_type: 'ranker' }), 422, 'VALIDATION_ERROR', ['model_type', 'ranker']);
    assertError(await env.call('POST', '/v1/models/train', { json: { csv_content: 'a,b\n1,2\n' } }), 422, 'VALIDATION_ERROR', ['target_column']);
    assertError(await train({ csv_content: smallCsv(), power_degree: 2 }), 422, 'VALIDATION_ERROR', ['power_degree', '2']);
  });

  it('422 for zero or two data sources and for data that cannot train', async () => {
    assertError(await train({}), 422, 'VALIDATION_ERROR', ['dataset_id', 'csv_content']);
    assertError(await train({ csv_content: smallCsv(), dataset_id: datasetId }), 422, 'VALIDATION_ERROR', ['dataset_id', 'csv_content']);
    assertError(await train({ csv_content: smallCsv(), target_column: 'nope' }), 422, 'VALIDATION_ERROR', ['nope']);
    assertError(await train({ csv_content: 'x,label\n1,a\n2,a\n3,a\n4,a\n5,a\n6,a\n7,a\n8,a\n9,a\n10,a\n' }), 422, 'VALIDATION_ERROR', ['label']);
    const manyClasses = ['x,kind', ...Array.from({ length: 130 }, (_, i) => `${i},k${i % 65}`)].join('\n');
    assertError(await train({ csv_content: manyClasses, target_column: 'kind' }), 422, 'VALIDATION_ERROR', ['kind', '65', 'k0']);
    assertError(await train({ csv_content: smallCsv(), model_type: 'regressor' }), 422, 'VALIDATION_ERROR', ['label']);
    assertError(await train({ csv_content: smallCsv(6), test_size: 0.1 }), 422, 'VALIDATION_ERROR', ['test_size']);
    assertError(await train({ csv_content: 'x,label\n1,"a\n' }), 422, 'VALIDATION_ERROR', ['quoted']);
    assertError(await train({ csv_content: smallCsv(), drop_columns: ['ghost'] }), 422, 'VALIDATION_ERROR', ['ghost']);
  });

  it('404 for unknown ids, also inside bodies', async () => {
    const ghost = '00000000-0000-0000-0000-000000000000';
    assertError(await env.call('GET', `/v1/models/${ghost}`), 404, 'NOT_FOUND', [ghost]);
    assertError(await env.call('GET', `/v1/models/versions/${ghost}`), 404, 'NOT_FOUND', [ghost]);
    assertError(await env.call('GET', `/v1/models/partitions/${ghost}`), 404, 'NOT_FOUND', [ghost]);
    assertError(await env.call('GET', `/v1/models/profile/${ghost}`), 404, 'NOT_FOUND', [ghost]);
    assertError(await env.call('GET', `/v1/models/evaluation/${ghost}`), 404, 'NOT_FOUND', [ghost]);
    assertError(await env.call('GET', `/v1/models/feature-info/${ghost}`), 404, 'NOT_FOUND', [ghost]);
    assertError(await env.call('DELETE', `/v1/models/${ghost}`), 404, 'NOT_FOUND', [ghost]);
    assertError(await train({ dataset_id: ghost }), 404, 'NOT_FOUND', [ghost]);
    assertError(await train({ dataset_name: 'no-such-set' }), 404, 'NOT_FOUND', ['no-such-set', 'penguins']);
    assertError(await train({ csv_content: smallCsv(), test_dataset_id: ghost }), 404, 'NOT_FOUND', [ghost]);
    assertError(await train({ csv_content: smallCsv(), model_id: ghost }), 404, 'NOT_FOUND', [ghost]);
    assertError(await env.call('POST', `/v1/models/versions/${ghost}/predict`, { json: { csv_content: 'x\n1\n' } }), 404, 'NOT_FOUND', [ghost]);
    assertError(await env.call('GET', '/v1/nothing-here'), 404, 'NOT_FOUND', ['/v1/nothing-here']);
    assertError(await env.call('GET', `/v1/autotrain/check_training_status?training_id=${ghost}`), 404, 'NOT_FOUND', [ghost]);
    assertError(await env.call('DELETE', `/v1/autotrain/trainings/${ghost}`), 404, 'NOT_FOUND', [ghost]);
    assertError(await env.call('GET', `/v1/preprocessors/${ghost}/versions`), 404, 'NOT_FOUND', [ghost]);
  });

  it('422 for partitions?latest without model_id, and for training on a model with another target', async () => {
    assertError(await env.call('GET', '/v1/models/partitions/latest'), 422, 'VALIDATION_ERROR', ['model_id']);
    assertError(await train({ csv_content: smallCsv(), target_column: 'x', model_type: 'regressor', model_id: trained.model_id }), 422, 'VALIDATION_ERROR', ['label', 'x']);
  });

  it('422 for a test dataset that lacks a model column', async () => {
    const partial = await uploadCsv(env.call, 'x,label\n1,yes\n2,no\n3,yes\n');
    assertError(await train({ csv_content: smallCsv(), test_dataset_id: partial }), 422, 'VALIDATION_ERROR', ['color']);
  });

  it('422 for bad refit features and parameters', async () => {
    const refit = (json: Record<string, unknown>) =>
      env.call('POST', `/v1/models/versions/${trained.version_id}/refit`, { json: { dataset_id: datasetId, target_column: 'label', ...json } });
    assertError(await refit({ features: ['ghost'], max_depth: 2 }), 422, 'VALIDATION_ERROR', ['ghost']);
    assertError(await refit({ feature_params: { x: { depth: 2 } } }), 422, 'VALIDATION_ERROR', ['depth']);
    assertError(await refit({ feature_params: { ghost: { max_depth: 2 } } }), 422, 'VALIDATION_ERROR', ['ghost']);
    assertError(await refit({ target_column: 'x' }), 422, 'VALIDATION_ERROR', ['x']);
  });

  it('422 for predict with a bad threshold, two sources or a header-only CSV', async () => {
    const predict = (json: Record<string, unknown>) => env.call('POST', `/v1/models/versions/${trained.version_id}/predict`, { json });
    assertError(await predict({ csv_content: 'x\n1\n', threshold: 2 }), 422, 'VALIDATION_ERROR', ['threshold', '2']);
    assertError(await predict({ csv_content: 'x\n1\n', dataset_id: datasetId }), 422, 'VALIDATION_ERROR', ['csv_content']);
    assertError(await predict({}), 422, 'VALIDATION_ERROR', ['dataset_id']);
    assertError(await predict({ csv_content: 'x,color,size\n' }), 422, 'VALIDATION_ERROR', ['no rows']);
  });

  it('413 for an upload over the limit, as multipart and as text/csv, and keeps nothing', async () => {
    const big = 'x,label\n' + '123456789,yes\n'.repeat(2000);
    const form = new FormData();
    form.append('file', new Blob([big], { type: 'text/csv' }), 'big.csv');
    assertError(await env.call('POST', '/v1/datasets', { body: form }), 413, 'PAYLOAD_TOO_LARGE', ['10485']);
    assertError(await env.call('POST', '/v1/datasets?name=big', { body: big, contentType: 'text/csv' }), 413, 'PAYLOAD_TOO_LARGE');
    const list = await env.call('GET', '/v1/datasets');
    assert.ok(list.body.every((d: { name: string }) => d.name !== 'big' && d.name !== 'big.csv'));
  });

  it('413 for a JSON body over the limit', async () => {
    const res = await env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'big', csv_content: smallCsv(2000) } });
    assertError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('422 for an empty or ragged upload', async () => {
    assertError(await env.call('POST', '/v1/datasets', { body: '', contentType: 'text/csv' }), 422, 'VALIDATION_ERROR', ['empty']);
    assertError(await env.call('POST', '/v1/datasets', { body: 'a,b\n1,2,3\n', contentType: 'text/csv' }), 422, 'VALIDATION_ERROR', ['CSV']);
  });

  it('422 for a header-only CSV, duplicate column names and a one-valued target, leaving nothing listed', async () => {
    const before = (await env.call('GET', '/v1/datasets')).body.length;
    const models = (await env.call('GET', `/v1/models/teams/${env.service.teamId}`)).body.length;
    assertError(await env.call('POST', '/v1/datasets', { body: 'a,b,y\n', contentType: 'text/csv' }), 422, 'VALIDATION_ERROR', ['header but no data rows']);
    assertError(await env.call('POST', '/v1/datasets', { body: 'a,b,a\n1,2,3\n', contentType: 'text/csv' }), 422, 'VALIDATION_ERROR', ['more than once', '"a"']);
    const train = (csv: string, modelType: string) =>
      env.call('POST', '/v1/models/train', { json: { target_column: 'y', model_name: 'bad', model_type: modelType, csv_content: csv } });
    assertError(await train('a,y\n', 'regressor'), 422, 'VALIDATION_ERROR', ['header but no data rows']);
    assertError(await train('a,y,a\n1,2,3\n4,5,6\n', 'regressor'), 422, 'VALIDATION_ERROR', ['"a" more than once']);
    const constant = Array.from({ length: 20 }, (_, i) => `${i},7`).join('\n');
    assertError(await train(`a,y\n${constant}`, 'regressor'), 422, 'VALIDATION_ERROR', ['single value (7)']);
    assertError(await train(`a,y\n${constant}`, 'classifier'), 422, 'VALIDATION_ERROR', ['y']);
    assert.equal((await env.call('GET', '/v1/datasets')).body.length, before, 'no dataset is left behind');
    assert.equal((await env.call('GET', `/v1/models/teams/${env.service.teamId}`)).body.length, models, 'no model is left behind');
  });

  it('422 for invalid preprocessor steps and link requests', async () => {
    const bad = await env.call('POST', '/v1/preprocessors', { json: { name: 'p', dataset_id: datasetId, steps: [{ type: 'explode', column: 'x' }] } });
    assertError(bad, 422, 'VALIDATION_ERROR', ['steps.0.type']);
    const unknownColumn = await env.call('POST', '/v1/preprocessors', { json: { name: 'p', dataset_id: datasetId, steps: [{ type: 'log1p', column: 'ghost' }] } });
    assertError(unknownColumn, 422, 'VALIDATION_ERROR', ['ghost']);
    assertError(await env.call('PUT', '/v1/preprocessors/link-preprocessor', { json: { preprocessor_version_id: 'p' } }), 422, 'VALIDATION_ERROR', ['model_version_id']);
    assertError(
      await env.call('PUT', '/v1/preprocessors/link-preprocessor', { json: { model_version_id: trained.version_id, preprocessor_version_id: 'nope' } }),
      404,
      'NOT_FOUND',
      ['nope'],
    );
  });

  it('422 for autotrain bodies outside the {team_id, req} envelope or with a bad textgen_config', async () => {
    assertError(await env.call('POST', '/v1/autotrain/generate_labels', { json: { summary: {} } }), 422, 'VALIDATION_ERROR', ['req']);
    const form = new FormData();
    form.append('file', new Blob([smallCsv()], { type: 'text/csv' }), 'small.csv');
    form.append('textgen_config', '{not json');
    assertError(await env.call('POST', '/v1/autotrain/summarize-dataset', { body: form }), 422, 'VALIDATION_ERROR', ['textgen_config']);
    assertError(await env.call('GET', '/v1/autotrain/check_training_status'), 422, 'VALIDATION_ERROR', ['training_id']);
  });
});
