import assert from 'node:assert/strict';
import { XModelsApiError } from '../../../src/client';
import { addVersionRequest, createModelRequest } from '../../../src/client/fittedModel';
import type { CreateModelRequest } from '../../../src/contract';
import { fitModel, parseCsv, toPayloads } from '../../../src/engine';
import { churnCsv } from './localService';

const frame = parseCsv(churnCsv(300)).drop(['customer_id']);
const x = frame.drop(['churned']);
const y = frame.column('churned');
const evaluationOf = (payload: { evaluation?: unknown }) => payload.evaluation as { train: { accuracy: number }; test: { accuracy: number } };

describe('client: uploading a fitted engine model', () => {
  it('builds a create request with the wire model type, algorithm and one payload per partition', () => {
    const model = fitModel(frame, { target: 'churned', modelType: 'classifier', partitionOn: 'region' });
    const request = createModelRequest({ model, x, y, model_name: 'churn', model_description: 'by region' });
    assert.deepEqual(
      [request.name, request.description, request.type, request.algorithm, request.target_name, request.partition_on],
      ['churn', 'by region', 'binary_classification', 'PartitionedClassifier', 'churned', 'region'],
    );
    assert.deepEqual(request.partitions.map((p) => p.partition).sort(), ['__dataset__', 'north', 'south']);
    const counts = Object.fromEntries(request.partitions.map((p) => [p.partition, (p.training_metadata as { n_train: number }).n_train]));
    assert.equal(counts.__dataset__, 300);
    assert.equal(counts.north + counts.south, 300);
  });

  it('evaluates each partition on its own rows and attaches the health scan of x', () => {
    const model = fitModel(frame, { target: 'churned', modelType: 'classifier', partitionOn: 'region' });
    const request = createModelRequest({ model, x, y, model_name: 'churn' });
    for (const payload of request.partitions) {
      const evaluation = evaluationOf(payload);
      assert.ok(evaluation.train.accuracy > 0.5 && evaluation.train.accuracy <= 1, `${payload.partition}: ${evaluation.train.accuracy}`);
      assert.deepEqual(Object.keys(payload.health_info as object).sort(), ['monthly', 'plan', 'region', 'tenure']);
    }
    const north = request.partitions.find((p) => p.partition === 'north');
    const whole = request.partitions.find((p) => p.partition === '__dataset__');
    assert.notDeepEqual(evaluationOf(north ?? {}).train, evaluationOf(whole ?? {}).train);
  });

  it('takes target values as an array and uses a separate test set when given', () => {
    const model = fitModel(frame.take(Array.from({ length: 200 }, (_, i) => i)), { target: 'churned', modelType: 'classifier' });
    const labels = Array.from({ length: 300 }, (_, i) => (y.storage === 'category' ? y.levels[y.codes[i]] : null));
    const request = addVersionRequest({
      model,
      model_id: 'm-1',
      x: x.take(Array.from({ length: 200 }, (_, i) => i)),
      y: labels.slice(0, 200),
      x_test: x.take(Array.from({ length: 100 }, (_, i) => 200 + i)),
      y_test: labels.slice(200),
    });
    assert.equal(request.model_id, 'm-1');
    const [payload] = request.partitions;
    assert.deepEqual(payload.training_metadata, { n_train: 200, n_test: 100 });
    assert.notEqual(evaluationOf(payload).train.accuracy, evaluationOf(payload).test.accuracy);
  });

  it('a regressor becomes an XRegressor upload', () => {
    const data = parseCsv('size,rooms,price\n50,2,100\n80,3,160\n65,2,130\n120,4,250\n90,3,180\n40,1,85\n70,3,150\n100,4,210\n');
    const model = fitModel(data, { target: 'price', modelType: 'regressor' });
    const request = createModelRequest({ model, x: data.drop(['price']), y: data.column('price'), model_name: 'price' });
    assert.deepEqual([request.type, request.algorithm], ['regression', 'XRegressor']);
    assert.ok('r2' in (request.partitions[0].evaluation as { train: object }).train);
  });

  it('rejects target values that do not match the rows, and a test set without its target', () => {
    const model = fitModel(frame, { target: 'churned', modelType: 'classifier' });
    assert.throws(
      () => createModelRequest({ model, x, y: ['yes', 'no'], model_name: 'm' }),
      (e: unknown) => e instanceof XModelsApiError && e.code === 'INVALID_ARGUMENT' && e.message === 'y has 2 values but the data has 300 rows: give one target value per row.',
    );
    assert.throws(() => createModelRequest({ model, x, y, x_test: x, model_name: 'm' }), (e: unknown) => e instanceof XModelsApiError && /x_test and y_test go together/.test(e.message));
  });

  it('passes ready payloads through unchanged', () => {
    const model = fitModel(frame, { target: 'churned', modelType: 'classifier' });
    const ready: CreateModelRequest = { name: 'r', type: 'binary_classification', target_name: 'churned', algorithm: 'XClassifier', partitions: toPayloads(model) };
    assert.equal(createModelRequest(ready), ready);
  });
});
