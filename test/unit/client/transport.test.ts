import assert from 'node:assert/strict';
import { XModelsApiError, type RetryInfo } from '../../../src/client';
import { API_KEY, connectInfo, json, mockService, modelInfo, summaryFixture } from './mockService';

const isApiError = (check: (e: XModelsApiError) => boolean) => (e: unknown) => e instanceof XModelsApiError && check(e);

describe('client: transport against a mocked hosted service', () => {
  it('sends the api_key header, JSON accept and no team header by default', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/teams', method: 'GET' }).reply(200, connectInfo.teams, json);
    const teams = await svc.client.teams();
    assert.deepEqual(teams.map((t) => t.team_id), ['team-1', 'team-2']);
    const [call] = svc.calls();
    assert.equal(call.headers.api_key, API_KEY);
    assert.equal(call.headers.accept, 'application/json');
    assert.equal(call.headers.team_id, undefined);
  });

  it('keeps a path in the base URL and uses the /v1/client prefix, with connect right under it', async () => {
    const svc = mockService({ baseUrl: 'http://svc.test/api/', pathPrefix: '/v1/client/' });
    svc.pool.intercept({ path: '/api/v1/client/connect', method: 'GET' }).reply(200, connectInfo, json);
    svc.pool.intercept({ path: '/api/v1/client/models/teams/team-1', method: 'GET' }).reply(200, [modelInfo], json);
    const models = await svc.client.models.listTeamModels();
    assert.equal(models[0].model_id, 'm-1');
    assert.deepEqual(svc.calls().map((c) => c.path), ['/api/v1/client/connect', '/api/v1/client/models/teams/team-1']);
  });

  it('encodes ids so they cannot change the route', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/models/a%2F..%2Fb', method: 'GET' }).reply(200, modelInfo, json);
    await svc.client.models.getModel('a/../b');
    assert.equal(svc.calls()[0].path, '/v1/models/a%2F..%2Fb');
  });

  it('names the field when a NaN token lands where the contract needs a number', async () => {
    const svc = mockService();
    const body = JSON.stringify({ version_id: 'v-1', partitions: [{ partition_id: 'p', partition: '__dataset__', n_train: 8, n_test: 2, base_value: 0.25 }] })
      .replace('0.25', 'NaN');
    svc.pool.intercept({ path: '/v1/models/partitions/v-1', method: 'GET' }).reply(200, body, json);
    await assert.rejects(svc.client.models.listModelVersionPartitions('v-1'), isApiError((e) => e.code === 'INVALID_RESPONSE' && e.detail.includes('partitions[0].base_value')));
  });

  it('reads the evaluation with NaN metrics as nulls', async () => {
    const svc = mockService();
    const metrics = '{"r2": NaN, "rmse": 1.5, "mae": 1, "mape": Infinity, "explained_variance": -Infinity, "charts": {"true": [1], "prediction": [2]}, "residual_bins": {"edges": [0, 1], "counts": [1]}}';
    const body = `{"partition_id": "p-1", "partition": "__dataset__", "model_type": "regression", "train": ${metrics}, "test": ${metrics}}`;
    svc.pool.intercept({ path: '/v1/models/evaluation/p-1', method: 'GET' }).reply(200, body, json);
    const evaluation = await svc.client.models.getModelEvaluation('p-1');
    assert.ok('r2' in evaluation.test);
    assert.equal(evaluation.test.r2, null);
    assert.equal(evaluation.test.rmse, 1.5);
    assert.equal(evaluation.test.mape, null);
  });

  it('fails a response that does not match the contract with the field path', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/models/m-1', method: 'GET' }).reply(200, { ...modelInfo, number_of_versions: 'two' }, json);
    await assert.rejects(
      svc.client.models.getModel('m-1'),
      isApiError((e) => e.code === 'INVALID_RESPONSE' && e.status === 0 && /number_of_versions/.test(e.message) && e.fields[0].path === 'number_of_versions'),
    );
  });

  it('retries a GET after 429, waiting as long as Retry-After says', async () => {
    const retries: RetryInfo[] = [];
    const svc = mockService({ onRetry: (info) => retries.push(info), retry: { baseDelayMs: 1, maxDelayMs: 5000 } });
    svc.pool.intercept({ path: '/v1/teams', method: 'GET' }).reply(429, { detail: 'Too many requests' }, { headers: { 'retry-after': '1' } });
    svc.pool.intercept({ path: '/v1/teams', method: 'GET' }).reply(200, connectInfo.teams, json);
    const teams = await svc.client.teams();
    assert.equal(teams.length, 2);
    assert.equal(svc.calls().length, 2);
    assert.deepEqual(retries.map((r) => [r.attempt, r.delayMs, r.reason]), [[1, 1000, 'HTTP 429']]);
  });

  it('retries a GET after 503 with backoff and gives up after maxRetries with the last answer', async () => {
    const retries: RetryInfo[] = [];
    const svc = mockService({ onRetry: (info) => retries.push(info), retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 } });
    svc.pool.intercept({ path: '/v1/teams', method: 'GET' }).reply(503, 'Service Unavailable').times(3);
    await assert.rejects(
      svc.client.teams(),
      isApiError((e) => e.status === 503 && e.code === 'SERVICE_UNAVAILABLE' && e.detail === 'Service Unavailable' && /try again/.test(e.suggestion ?? '')),
    );
    assert.equal(svc.calls().length, 3);
    assert.deepEqual(retries.map((r) => r.attempt), [1, 2]);
  });

  it('retries a dropped connection on an idempotent call', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/models/m-1', method: 'DELETE' }).replyWithError(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
    svc.pool.intercept({ path: '/v1/models/m-1', method: 'DELETE' }).reply(204, '');
    await svc.client.models.deleteModel('m-1');
    assert.equal(svc.calls().length, 2);
  });

  it('never retries a POST: a dropped connection or 503 on train fails at once', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/models/train', method: 'POST' }).replyWithError(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
    await assert.rejects(
      svc.client.models.trainModel({ target_column: 'y', model_name: 'm', dataset_id: 'd-1' }),
      isApiError((e) => e.code === 'CONNECTION_RESET' && e.status === 0 && /closed before the answer/.test(e.message)),
    );
    svc.pool.intercept({ path: '/v1/models/train', method: 'POST' }).reply(503, { detail: 'busy' }, json);
    await assert.rejects(svc.client.models.trainModel({ target_column: 'y', model_name: 'm', dataset_id: 'd-1' }), isApiError((e) => e.status === 503));
    assert.equal(svc.calls().length, 2);
  });

  it('does not retry a POST answered with 429', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/autotrain/start_autotrain', method: 'POST' }).reply(429, { detail: 'Too many concurrent jobs (2 running)' }, { headers: { 'retry-after': '0', 'content-type': 'application/json' } });
    await assert.rejects(
      svc.client.autotrain.startAutotrain({ model_name: 'm', summary: summaryFixture() }),
      isApiError((e) => e.status === 429 && e.detail === 'Too many concurrent jobs (2 running)' && /Wait for a running job/.test(e.message)),
    );
    assert.equal(svc.calls().length, 1);
  });

  it('fails with ABORTED when the signal fires, and sends nothing for an aborted signal', async () => {
    const svc = mockService();
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(svc.client.teams({ signal: controller.signal }), isApiError((e) => e.cancelled && e.status === 0));
    assert.equal(svc.calls().length, 0);
    const later = new AbortController();
    svc.pool.intercept({ path: '/v1/teams', method: 'GET' }).reply(200, connectInfo.teams, json).delay(5_000);
    const pending = svc.client.teams({ signal: later.signal });
    setImmediate(() => later.abort());
    await assert.rejects(pending, isApiError((e) => e.code === 'ABORTED'));
  });
});
