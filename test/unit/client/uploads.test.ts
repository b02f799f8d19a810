import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import busboy from 'busboy';
import { XModelsClient } from '../../../src/client';
import { startServer, type Loopback } from './loopback';
import { churnCsv } from './localService';
import { API_KEY, summaryFixture } from './mockService';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  fields: Record<string, string>;
  files: Record<string, { filename: string; mimeType: string; content: string }>;
}

const dataset = { dataset_id: 'd-7', name: 'churn.csv', rows: 3, columns: ['a'], size_bytes: 10, created: '2026-01-01T00:00:00Z' };
const trainResult = {
  model_id: 'm-1',
  version_id: 'v-1',
  dataset_id: 'd-7',
  model_type: 'binary_classification',
  target_column: 'churned',
  train_metrics: { accuracy: 1, roc_auc: 1, f1: 1, precision: 1, recall: 1, log_loss: 0, brier: 0, mcc: 1, confusion_matrix: [[1, 0], [0, 1]] },
  test_metrics: { accuracy: 1, roc_auc: 1, f1: 1, precision: 1, recall: 1, log_loss: 0, brier: 0, mcc: 1, confusion_matrix: [[1, 0], [0, 1]] },
  feature_importances: [],
  n_train: 2,
  n_test: 1,
  partitions: [],
  duration_ms: 5,
};

const predictions = { version_id: 'v-1', n: 1, base_value: 0.3, predictions: ['no'], warnings: [] };
const answers: Record<string, unknown> = { '/v1/datasets': dataset, '/v1/models/train': trainResult, '/v1/models/versions/v-1/predict': predictions };

function parseMultipart(req: IncomingMessage, body: Buffer): Promise<Pick<Received, 'fields' | 'files'>> {
  return new Promise((resolve, reject) => {
    const fields: Received['fields'] = {};
    const files: Received['files'] = {};
    const parser = busboy({ headers: req.headers });
    parser.on('field', (name, value) => (fields[name] = value));
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => (files[name] = { filename: info.filename ?? '', mimeType: info.mimeType, content: Buffer.concat(chunks).toString() }));
    });
    parser.on('close', () => resolve({ fields, files }));
    parser.on('error', reject);
    parser.end(body);
  });
}

describe('client: streamed uploads to a loopback stub', () => {
  let stub: Loopback;
  let received: Received[];
  let client: XModelsClient;
  let dir: string;
  let csvPath: string;

  before(async () => {
    stub = await startServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks);
        const multipart = String(req.headers['content-type']).startsWith('multipart/') ? await parseMultipart(req, body) : { fields: {}, files: {} };
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, ...multipart });
        const path = (req.url ?? '').split('?')[0];
        const answer = answers[path] ?? summaryFixture();
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    client = new XModelsClient({ baseUrl: stub.url, apiKey: API_KEY });
    dir = mkdtempSync(join(tmpdir(), 'xmodels-client-upload-'));
    csvPath = join(dir, 'churn "q1".csv');
    writeFileSync(csvPath, churnCsv(2000));
  });

  beforeEach(() => {
    received = [];
  });

  after(async () => {
    await client.close();
    await stub.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uploads a dataset file as a text/csv body with its size and name', async () => {
    const result = await client.datasets.upload({ file_path: csvPath });
    assert.equal(result.dataset_id, 'd-7');
    const [request] = received;
    assert.equal(request.method, 'POST');
    const url = new URL(request.url, stub.url);
    assert.equal(url.pathname, '/v1/datasets');
    assert.equal(url.searchParams.get('name'), 'churn "q1".csv');
    assert.equal(request.headers['content-type'], 'text/csv');
    assert.equal(request.headers['content-length'], String(statSync(csvPath).size));
    assert.equal(request.body.toString(), churnCsv(2000));
  });

  it('uploads a Parquet file, by path whatever its name or as bytes, as an application/vnd.apache.parquet body', async () => {
    const parquet = Buffer.concat([Buffer.from('PAR1'), Buffer.from([1, 2, 3, 0, 255]), Buffer.from('PAR1')]);
    const parquetPath = join(dir, 'penguins.csv');
    writeFileSync(parquetPath, parquet);
    await client.datasets.upload({ file_path: parquetPath });
    await client.datasets.upload({ parquet_content: new Uint8Array(parquet), name: 'penguins' });
    assert.deepEqual(
      received.map((r) => [r.headers['content-type'], r.headers['content-length'], new URL(r.url, stub.url).searchParams.get('name')]),
      [
        ['application/vnd.apache.parquet', String(parquet.length), 'penguins.csv'],
        ['application/vnd.apache.parquet', String(parquet.length), 'penguins'],
      ],
    );
    for (const request of received) assert.deepEqual(request.body, parquet);
  });

  it('trainModel({file_path}) uploads first and trains on the returned dataset_id', async () => {
    const result = await client.models.trainModel({ file_path: csvPath, target_column: 'churned', model_name: 'churn', test_size: 0.3 });
    assert.equal(result.version_id, 'v-1');
    assert.deepEqual(received.map((r) => r.url.split('?')[0]), ['/v1/datasets', '/v1/models/train']);
    assert.equal(received[0].body.toString(), churnCsv(2000));
    assert.deepEqual(JSON.parse(received[1].body.toString()), { target_column: 'churned', model_name: 'churn', test_size: 0.3, dataset_id: 'd-7' });
  });

  it('trainModel({file_path}) on the local service (filesInPlace) sends the absolute path, never the bytes, then trains', async () => {
    const local = new XModelsClient({ baseUrl: stub.url, apiKey: API_KEY, filesInPlace: true });
    try {
      await local.models.trainModel({ file_path: csvPath, target_column: 'churned', model_name: 'churn' });
    } finally {
      await local.close();
    }
    assert.deepEqual(received.map((r) => r.url.split('?')[0]), ['/v1/datasets', '/v1/models/train']);
    assert.equal(received[0].headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(received[0].body.toString()), { name: 'churn "q1".csv', source: { file: csvPath } });
    assert.equal(JSON.parse(received[1].body.toString()).dataset_id, 'd-7');
  });

  it('summarizeDataset sends the file as multipart `file` with team_id and textgen_config fields', async () => {
    await client.autotrain.summarizeDataset({ file_path: csvPath, team_id: 'team-3', textgen_config: { provider: 'rules', temperature: 0 } });
    const [request] = received;
    assert.equal(request.url, '/v1/autotrain/summarize-dataset');
    assert.equal(request.headers['content-length'], String(request.body.length));
    assert.deepEqual(request.fields, { team_id: 'team-3', textgen_config: '{"provider":"rules","temperature":0}' });
    assert.equal(request.files.file.filename, 'churn %22q1%22.csv');
    assert.equal(request.files.file.mimeType, 'text/csv');
    assert.equal(request.files.file.content, churnCsv(2000));
  });

  it('summarizeDataset accepts csv_content with a file name', async () => {
    await client.autotrain.summarizeDataset({ csv_content: 'a,b\n1,2\n', file_name: 'small.csv' });
    const [request] = received;
    assert.deepEqual(request.fields, {});
    assert.deepEqual(request.files.file, { filename: 'small.csv', mimeType: 'text/csv', content: 'a,b\n1,2\n' });
  });

  it('predict({file_path}) uploads the rows as a dataset and predicts on its id', async () => {
    const result = await client.models.predict('v-1', { file_path: csvPath, explain: true });
    assert.deepEqual(result.predictions, ['no']);
    assert.deepEqual(received.map((r) => r.url.split('?')[0]), ['/v1/datasets', '/v1/models/versions/v-1/predict']);
    assert.deepEqual(JSON.parse(received[1].body.toString()), { explain: true, dataset_id: 'd-7' });
  });
});
