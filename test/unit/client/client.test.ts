import assert from 'node:assert/strict';
import { XModelsApiError, XModelsClient } from '../../../src/client';
import type { TrainingStatus } from '../../../src/contract';
import { connectInfo, json, mockService, modelInfo, summaryFixture, trainingStatus } from './mockService';

const isApiError = (check: (e: XModelsApiError) => boolean) => (e: unknown) => e instanceof XModelsApiError && check(e);

describe('client: teams, autotrain envelopes and polling (mocked)', () => {
  it('asks connect once and reuses the answer for the default team', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/client/connect', method: 'GET' }).reply(200, connectInfo, json);
    svc.pool.intercept({ path: '/v1/models/teams/team-1', method: 'GET' }).reply(200, [modelInfo], json).times(2);
    await svc.client.models.listTeamModels();
    await svc.client.models.listTeamModels();
    assert.equal((await svc.client.connect()).username, 'ada');
    assert.deepEqual(svc.calls().map((c) => c.path), ['/v1/client/connect', '/v1/models/teams/team-1', '/v1/models/teams/team-1']);
  });

  it('asks connect again after a failure instead of caching it', async () => {
    const svc = mockService({ retry: { maxRetries: 0 } });
    svc.pool.intercept({ path: '/v1/client/connect', method: 'GET' }).reply(500, { detail: 'boom' }, json);
    svc.pool.intercept({ path: '/v1/client/connect', method: 'GET' }).reply(200, connectInfo, json);
    await assert.rejects(svc.client.connect(), isApiError((e) => e.status === 500));
    assert.equal((await svc.client.connect()).team_id, 'team-1');
  });

  it('sends the chosen team as the team_id header and in autotrain envelopes', async () => {
    const svc = mockService({ teamId: 'team-2' });
    svc.pool.intercept({ path: '/v1/models/teams/team-2', method: 'GET' }).reply(200, [], json);
    svc.pool.intercept({ path: '/v1/autotrain/generate_labels', method: 'POST' }).reply(200, { labels: [], source: 'rules', warnings: [] }, json);
    await svc.client.models.listTeamModels();
    await svc.client.autotrain.generateLabels({ summary: summaryFixture() });
    const [list, labels] = svc.calls();
    assert.equal(list.headers.team_id, 'team-2');
    assert.equal(labels.headers.team_id, 'team-2');
    assert.deepEqual(JSON.parse(labels.body ?? ''), { team_id: 'team-2', req: { summary: summaryFixture() } });
  });

  it('switches team with useTeam and forgets the cached connection', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/client/connect', method: 'GET' }).reply(200, connectInfo, json);
    svc.pool.intercept({ path: '/v1/client/connect', method: 'GET' }).reply(200, { ...connectInfo, team_id: 'team-2', team_name: 'Ops' }, json);
    await svc.client.connect();
    svc.client.useTeam('team-2');
    assert.equal(svc.client.teamId, 'team-2');
    assert.equal((await svc.client.connect()).team_name, 'Ops');
    assert.equal(svc.calls()[1].headers.team_id, 'team-2');
  });

  it('wraps autotrain bodies as {team_id: null, req} when no team is chosen, keeping a team_id given per call', async () => {
    const svc = mockService();
    const goal = { index: 0, question: 'What drives churn?', visualization: 'bar', rationale: '', columns: ['age'] };
    svc.pool.intercept({ path: '/v1/autotrain/insights', method: 'POST' }).reply(200, { goal, insights: [], source: 'rules' }, json);
    svc.pool.intercept({ path: '/v1/autotrain/summarize', method: 'POST' }).reply(200, summaryFixture(), json);
    await svc.client.autotrain.generateInsights({ goal, summary: summaryFixture() });
    await svc.client.autotrain.summarizeByDatasetId({ dataset_id: 'd-1', team_id: 'team-9' });
    const [insights, summarize] = svc.calls().map((c) => JSON.parse(c.body ?? ''));
    assert.deepEqual(insights, { team_id: null, req: { goal, summary: summaryFixture() } });
    assert.deepEqual(summarize, { team_id: 'team-9', req: { dataset_id: 'd-1' } });
  });

  it('waits for training, reporting every poll, until completed', async () => {
    const svc = mockService();
    const path = '/v1/autotrain/check_training_status?training_id=t-1';
    svc.pool.intercept({ path, method: 'GET' }).reply(200, trainingStatus('pending'), json);
    svc.pool.intercept({ path, method: 'GET' }).reply(200, trainingStatus('running'), json);
    svc.pool.intercept({ path, method: 'GET' }).reply(200, trainingStatus('completed', { progress: 100, model_id: 'm-1', version_id: 'v-1' }), json);
    const seen: TrainingStatus[] = [];
    const done = await svc.client.autotrain.waitForTraining('t-1', { interval: 1, onProgress: (s) => seen.push(s) });
    assert.equal(done.version_id, 'v-1');
    assert.deepEqual(seen.map((s) => s.status), ['pending', 'running', 'completed']);
  });

  it('treats the hosted states done and error as completed and failed', async () => {
    const svc = mockService();
    const path = '/v1/autotrain/check_training_status?training_id=t-1';
    svc.pool.intercept({ path, method: 'GET' }).reply(200, trainingStatus('done'), json);
    svc.pool.intercept({ path, method: 'GET' }).reply(200, trainingStatus('error', { error: 'label has one value' }), json);
    assert.equal((await svc.client.autotrain.waitForTraining('t-1')).status, 'completed');
    await assert.rejects(
      svc.client.autotrain.waitForTraining('t-1'),
      isApiError((e) => e.code === 'TRAINING_FAILED' && e.detail === 'Training t-1 failed: label has one value.'),
    );
  });

  it('rejects for a cancelled job and for an interrupted one with advice', async () => {
    const svc = mockService();
    const path = '/v1/autotrain/check_training_status?training_id=t-1';
    svc.pool.intercept({ path, method: 'GET' }).reply(200, trainingStatus('cancelled'), json);
    svc.pool.intercept({ path, method: 'GET' }).reply(200, trainingStatus('failed', { error: 'interrupted' }), json);
    await assert.rejects(svc.client.autotrain.waitForTraining('t-1'), isApiError((e) => e.code === 'TRAINING_CANCELLED'));
    await assert.rejects(svc.client.autotrain.waitForTraining('t-1'), isApiError((e) => /start the training again/.test(e.message)));
  });

  it('stops waiting when the signal fires between polls', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/autotrain/check_training_status?training_id=t-1', method: 'GET' }).reply(200, trainingStatus('running'), json).persist();
    const controller = new AbortController();
    const waiting = svc.client.autotrain.waitForTraining('t-1', { interval: 60_000, signal: controller.signal, onProgress: () => controller.abort() });
    await assert.rejects(waiting, isApiError((e) => e.cancelled));
    assert.equal(svc.calls().length, 1);
  });

  it('checks the one-data-source rule before sending anything', async () => {
    const svc = mockService();
    await assert.rejects(
      svc.client.models.trainModel({ target_column: 'y', model_name: 'm' }),
      isApiError((e) => e.code === 'INVALID_ARGUMENT' && /exactly one data source, dataset_id, dataset_name, csv_content or file_path: none was given/.test(e.message)),
    );
    await assert.rejects(
      svc.client.models.trainModel({ target_column: 'y', model_name: 'm', dataset_id: 'd', file_path: '/tmp/x.csv' }),
      isApiError((e) => /got dataset_id and file_path/.test(e.message) && e.fields[0].path === 'file_path'),
    );
    await assert.rejects(svc.client.models.predict('v-1', {}), isApiError((e) => e.code === 'INVALID_ARGUMENT'));
    await assert.rejects(svc.client.autotrain.summarizeDataset({}), isApiError((e) => e.code === 'INVALID_ARGUMENT'));
    await assert.rejects(svc.client.datasets.upload({ file_path: 'a.csv', csv_content: 'a\n1' }), isApiError((e) => e.code === 'INVALID_ARGUMENT'));
    assert.equal(svc.calls().length, 0);
  });

  it('fails before any request when the file does not exist', async () => {
    const svc = mockService();
    await assert.rejects(
      svc.client.models.trainModel({ target_column: 'y', model_name: 'm', file_path: '/nonexistent/data.csv' }),
      isApiError((e) => e.code === 'FILE_NOT_READABLE' && e.detail === 'Cannot read the data file /nonexistent/data.csv: it does not exist.'),
    );
    assert.equal(svc.calls().length, 0);
  });

  it('rejects a bad base URL, an empty key and an empty id up front', async () => {
    assert.throws(() => mockService({ baseUrl: 'localhost:8765' }), isApiError((e) => e.code === 'INVALID_ARGUMENT' && /baseUrl/.test(e.message)));
    assert.throws(() => mockService({ baseUrl: 'ftp://host' }), isApiError((e) => /must start with http/.test(e.message)));
    assert.throws(() => mockService({ apiKey: '' }), isApiError((e) => /apiKey is empty/.test(e.message)));
    await assert.rejects(mockService().client.models.getModel(''), isApiError((e) => /id is empty/.test(e.message)));
    assert.throws(
      () => new XModelsClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', proxy: 'user:pw@proxy' }),
      isApiError((e) => e.code === 'INVALID_ARGUMENT' && /proxy setting is not a URL/.test(e.message) && !e.message.includes('pw')),
    );
  });
});
