import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TrainingStatusSchema, type TrainingStatus } from '../../../src/contract';
import { client, DATASETS, removeDir, startService, TEST_BACKEND, type Call, type ServiceProcess } from './harness';
import { smallCsv } from './fixtures';

async function summarize(call: Call, csv: string, name: string) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), name);
  const res = await call('POST', '/v1/autotrain/summarize-dataset', { body: form });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function status(call: Call, id: string): Promise<TrainingStatus> {
  const res = await call('GET', `/v1/autotrain/check_training_status?training_id=${id}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return TrainingStatusSchema.parse(res.body);
}

/** Polls until `done` holds, recording every state seen. */
async function waitFor(call: Call, id: string, done: (s: TrainingStatus) => boolean, seen: string[] = []): Promise<TrainingStatus> {
  for (;;) {
    const s = await status(call, id);
    if (seen[seen.length - 1] !== s.status) seen.push(s.status);
    if (done(s)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A chat-completions endpoint on 127.0.0.1 that holds every request until `release()`, then answers 500 (a job then
 * goes on from the rules). A job that calls it waits there while running, however fast the machine (until released,
 * or for the minute text generation is given).
 */
async function heldEndpoint() {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = createServer((req, res) => {
    req.resume();
    void released.then(() => res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"held"}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    release,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const start = (call: Call, summary: unknown, extra: Record<string, unknown> = {}) =>
  call('POST', '/v1/autotrain/start_autotrain', { json: { team_id: null, req: { model_name: 'auto', model_description: 'd', summary, textgen_config: {}, ...extra } } });

/** A short job lease, so a replica on PostgreSQL takes over a killed one's job within seconds. */
const SERVICE_ARGS = ['--max-pending-jobs', '1', '--job-lease-s', '2'];

describe('service: autotrain jobs', function () {
  this.timeout(150_000);
  let service: ServiceProcess;
  let call: Call;
  let endpoint: Awaited<ReturnType<typeof heldEndpoint>>;

  before(async () => {
    endpoint = await heldEndpoint();
    // On the PostgreSQL backend the service is a team server: the caller's endpoint must be one its operator allows.
    service = await startService({ args: [...SERVICE_ARGS, '--llm-endpoint', endpoint.url] });
    call = client(service.url, service.apiKey);
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
    endpoint.release();
    await endpoint.close();
  });

  it('runs pending → running → completed with real progress and registers an autotrain model', async () => {
    // One missing x makes autotrain recommend a fill step, so it creates and applies a preprocessor.
    const summary = await summarize(call, smallCsv(200).replace('\n37,', '\n,'), 'small.csv');
    // The job asks this endpoint for feature-engineering recommendations and waits for its answer, so it cannot end
    // before the running state has been seen; the endpoint is released once it has.
    const seen: string[] = [];
    const progress: number[] = [];
    const observed: { running?: TrainingStatus } = {};
    let final: TrainingStatus;
    try {
      const res = await start(call, summary, { label: 'label', textgen_config: { provider: 'openai', base_url: endpoint.url, model: 'm' } });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.equal(res.body.status, 'pending');
      final = await waitFor(call, res.body.training_id, (s) => {
        progress.push(s.progress);
        if (!observed.running && s.status === 'running' && s.progress > 0) {
          observed.running = s;
          endpoint.release();
        }
        return s.status !== 'pending' && s.status !== 'running';
      }, seen);
    } finally {
      endpoint.release();
    }
    assert.ok(observed.running, `running with progress was reported before the end; states seen: ${seen.join(' → ')}`);
    assert.ok(observed.running.progress < 100, `progress while running: ${observed.running.progress}`);
    assert.match(seen.join(' → '), /^(pending → )?running → completed$/);
    assert.equal(final.status, 'completed', JSON.stringify(final));
    assert.equal(final.progress, 100);
    assert.deepEqual(progress, [...progress].sort((a, b) => a - b), 'progress never goes back');
    const versions = await call('GET', `/v1/models/versions/${final.model_id}`);
    assert.equal(versions.body[0].version_id, final.version_id);
    assert.equal(versions.body[0].source, 'autotrain');
    assert.equal((await call('GET', `/v1/models/${final.model_id}`)).body.target_name, 'label');
    const linked = versions.body[0].linked_preprocessor;
    assert.ok(linked, 'the preprocessor autotrain created and applied is reported on the version');
    const pre = await call('GET', `/v1/preprocessors/${linked.preprocessor_id}/versions`);
    assert.equal(pre.status, 200, JSON.stringify(pre.body));
    assert.ok(pre.body.some((v: { version_id: string }) => v.version_id === linked.version_id));
  });

  it('refuses a classifier label with more than 50 classes at request time, naming the label', async () => {
    const csv = ['x,kind', ...Array.from({ length: 130 }, (_, i) => `${i},k${i % 65}`)].join('\n');
    const summary = await summarize(call, csv, 'many.csv');
    const res = await start(call, summary, { label: 'kind' });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.match(res.body.detail, /label kind cannot be trained as a classifier: it has 65 classes/);
    const explicit = await start(call, summary, { label: 'kind', model_type: 'classifier' });
    assert.equal(explicit.status, 422);
  });

  it('cancels a job, reports 409 for cancelling it again, and answers 429 beyond the queue limit', async () => {
    const flights = readFileSync(join(DATASETS, 'flights-20k.csv'), 'utf8');
    const summary = await summarize(call, flights, 'flights.csv');
    const first = await start(call, summary, { label: 'delay', model_type: 'regressor' });
    assert.equal(first.status, 202);
    // The queue limit counts waiting jobs: once the first is claimed (on PostgreSQL that may land after the answer to
    // the submit), one more may wait.
    await waitFor(call, first.body.training_id, (s) => s.status !== 'pending');
    const second = await start(call, summary, { label: 'delay', model_type: 'regressor' });
    assert.equal(second.status, 202);
    const third = await start(call, summary, { label: 'delay', model_type: 'regressor' });
    assert.equal(third.status, 429, JSON.stringify(third.body));
    assert.equal(third.body.error.code, 'TOO_MANY_JOBS');

    const pending = await call('DELETE', `/v1/autotrain/trainings/${second.body.training_id}`);
    assert.equal(pending.status, 200);
    assert.equal(pending.body.status, 'cancelled');

    await waitFor(call, first.body.training_id, (s) => s.status === 'running' && s.progress > 0);
    const running = await call('DELETE', `/v1/autotrain/trainings/${first.body.training_id}`);
    assert.equal(running.body.status, 'cancelled');
    const again = await call('DELETE', `/v1/autotrain/trainings/${first.body.training_id}`);
    assert.equal(again.status, 409);
    assert.ok(again.body.detail.includes('cancelled'));
    await new Promise((r) => setTimeout(r, 500));
    const after = await status(call, first.body.training_id);
    assert.equal(after.status, 'cancelled');
    assert.equal(after.model_id, null);
  });

  it('trains manually from a preprocessor version', async () => {
    const form = new FormData();
    form.append('file', new Blob([smallCsv(150)], { type: 'text/csv' }), 'manual.csv');
    const dataset = (await call('POST', '/v1/datasets', { body: form })).body;
    const pre = await call('POST', '/v1/preprocessors', {
      json: { name: 'prep', description: '', dataset_id: dataset.dataset_id, steps: [{ type: 'log1p', column: 'size' }] },
    });
    assert.equal(pre.status, 200, JSON.stringify(pre.body));
    const res = await call('POST', '/v1/autotrain/train_manual', {
      json: { team_id: null, req: { label: 'label', model_name: 'manual', model_description: '', preprocessor_id: pre.body.preprocessor_id, version_id: pre.body.version_id } },
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const final = await waitFor(call, res.body.training_id, (s) => s.status === 'completed' || s.status === 'failed');
    assert.equal(final.status, 'completed', JSON.stringify(final));
    const versions = await call('GET', `/v1/models/versions/${final.model_id}`);
    assert.equal(versions.body[0].linked_preprocessor, null);
    const predicted = await call('POST', `/v1/models/versions/${final.version_id}/predict`, { json: { csv_content: 'x,color,size\n90,red,3\n' } });
    assert.deepEqual(predicted.body.predictions, ['yes']);
    const badLabel = await call('POST', '/v1/autotrain/train_manual', {
      json: { req: { label: 'ghost', model_name: 'm', model_description: '', preprocessor_id: pre.body.preprocessor_id, version_id: pre.body.version_id } },
    });
    assert.equal(badLabel.status, 422);
    assert.ok(badLabel.body.detail.includes('ghost'));
    const numeric = await call('POST', '/v1/autotrain/train_manual', {
      json: { req: { label: 'x', model_name: 'by x', model_description: '', preprocessor_id: pre.body.preprocessor_id, version_id: pre.body.version_id } },
    });
    assert.equal(numeric.status, 202, JSON.stringify(numeric.body));
    const regressed = await waitFor(call, numeric.body.training_id, (s) => s.status === 'completed' || s.status === 'failed');
    assert.equal(regressed.status, 'completed', JSON.stringify(regressed));
    const payload = await call('GET', `/v1/models/versions/${regressed.version_id}/payload`);
    assert.equal(payload.body.model_type, 'regression', 'a numeric label of many values is regressed when no model_type is given');
  });

  const afterKill =
    TEST_BACKEND === 'sqlite'
      ? 'fails jobs that were running at a kill -9 as interrupted (the service holds the database alone) and runs the pending ones after restart'
      : 'takes over the jobs that were running at a kill -9 once their lease expired, and runs the pending ones after restart';
  it(afterKill, async () => {
    const dataDir = service.dataDir;
    const flights = readFileSync(join(DATASETS, 'flights-20k.csv'), 'utf8');
    const summary = await summarize(call, flights, 'flights.csv');
    const running = await start(call, summary, { label: 'delay', model_type: 'regressor' });
    await waitFor(call, running.body.training_id, (s) => s.status === 'running');
    const small = await summarize(call, smallCsv(100), 'small.csv');
    const pending = await start(call, small, { label: 'label' });
    assert.equal(pending.status, 202);
    await service.kill9();

    service = await startService({ dataDir, args: SERVICE_ARGS });
    call = client(service.url, service.apiKey);
    const ended = (s: TrainingStatus) => s.status === 'completed' || s.status === 'failed';
    if (TEST_BACKEND === 'sqlite') {
      const interrupted = await status(call, running.body.training_id);
      assert.equal(interrupted.status, 'failed');
      assert.equal(interrupted.error, 'interrupted');
    } else {
      const takenOver = await waitFor(call, running.body.training_id, ended);
      assert.equal(takenOver.status, 'completed', JSON.stringify(takenOver));
    }
    const resumed = await waitFor(call, pending.body.training_id, ended);
    assert.equal(resumed.status, 'completed', JSON.stringify(resumed));
  });
});
