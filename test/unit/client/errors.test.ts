import assert from 'node:assert/strict';
import { XModelsApiError } from '../../../src/client';
import { API_KEY, json, mockService } from './mockService';

async function failure(promise: Promise<unknown>): Promise<XModelsApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof XModelsApiError, `expected XModelsApiError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

describe('client: error answers', () => {
  it('reads the contract error body: code, detail, suggestion and fields', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/models/versions/v-1/refit', method: 'POST' }).reply(
      422,
      {
        detail: 'test_size must be between 0 and 1 (got 1.5)',
        error: {
          code: 'VALIDATION_ERROR',
          message: 'test_size must be between 0 and 1 (got 1.5)',
          suggestion: 'Use a fraction such as 0.2.',
          fields: [{ path: 'test_size', message: 'must be < 1' }],
        },
      },
      json,
    );
    const error = await failure(svc.client.models.refitModel('v-1', { dataset_id: 'd', target_column: 'y', test_size: 1.5 }));
    assert.equal(error.status, 422);
    assert.equal(error.code, 'VALIDATION_ERROR');
    assert.equal(error.detail, 'test_size must be between 0 and 1 (got 1.5)');
    assert.equal(error.suggestion, 'Use a fraction such as 0.2.');
    assert.deepEqual(error.fields, [{ path: 'test_size', message: 'must be < 1' }]);
    assert.equal(error.message, 'test_size must be between 0 and 1 (got 1.5) Use a fraction such as 0.2.');
  });

  it('reads a hosted detail string and derives the code from the status', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/models/m-9', method: 'GET' }).reply(404, { detail: 'Model m-9 not found' }, json);
    const error = await failure(svc.client.models.getModel('m-9'));
    assert.deepEqual([error.status, error.code, error.detail, error.suggestion], [404, 'NOT_FOUND', 'Model m-9 not found', undefined]);
  });

  it('reads a FastAPI detail list of {loc, msg} into fields and a sentence', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/models/train', method: 'POST' }).reply(
      422,
      {
        detail: [
          { loc: ['body', 'target_column'], msg: 'field required', type: 'value_error.missing' },
          { loc: ['body', 'drop_columns', 0], msg: 'str type expected', type: 'type_error.str' },
        ],
      },
      json,
    );
    const error = await failure(svc.client.models.trainModel({ target_column: 'y', dataset_id: 'd' }));
    assert.equal(error.code, 'VALIDATION_ERROR');
    assert.deepEqual(error.fields, [
      { path: 'target_column', message: 'field required' },
      { path: 'drop_columns[0]', message: 'str type expected' },
    ]);
    assert.equal(error.detail, 'target_column: field required; drop_columns[0]: str type expected');
  });

  it('turns a 401 into advice about the key, and never repeats the key', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/teams', method: 'GET' }).reply(401, { detail: `Unknown API key ${API_KEY}` }, json);
    const error = await failure(svc.client.teams());
    assert.equal(error.code, 'UNAUTHORIZED');
    assert.ok(!error.message.includes(API_KEY), error.message);
    assert.ok(!JSON.stringify(error.fields).includes(API_KEY));
    assert.match(error.message, /Unknown API key \[redacted\]/);
    assert.match(error.message, /Check the API key/);
  });

  it('keeps a short plain-text body and ignores an HTML error page', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/teams', method: 'GET' }).reply(502, '<html><body>Bad gateway</body></html>');
    const html = await failure(svc.client.teams());
    assert.equal(html.code, 'BAD_GATEWAY');
    assert.equal(html.detail, 'GET /v1/teams failed with HTTP 502.');
    svc.pool.intercept({ path: '/v1/datasets', method: 'GET' }).reply(400, 'upstream said no');
    const text = await failure(svc.client.datasets.list());
    assert.deepEqual([text.status, text.code, text.detail], [400, 'BAD_REQUEST', 'upstream said no']);
  });

  it('fails a 2xx answer that is not JSON with a clear sentence', async () => {
    const svc = mockService();
    svc.pool.intercept({ path: '/v1/teams', method: 'GET' }).reply(200, '<html>login</html>');
    const error = await failure(svc.client.teams());
    assert.equal(error.code, 'INVALID_RESPONSE');
    assert.match(error.message, /answer to GET \/v1\/teams is not JSON/);
  });
});
