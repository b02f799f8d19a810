import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { client, DATASETS, removeDir, startService, storedText, type Call, type ServiceProcess } from './harness';
import { smallCsv } from './fixtures';

/** A chat-completions endpoint on 127.0.0.1 that records the credentials of every request and answers 500. */
class Recorder {
  readonly seen: IncomingHttpHeaders[] = [];
  private server: Server = createServer((req, res) => {
    this.seen.push(req.headers);
    req.resume();
    req.on('end', () => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":"recorder"}');
    });
  });
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  credentials(): string[] {
    return this.seen.flatMap((h) => [h.authorization, h['api-key']].filter((v): v is string => typeof v === 'string'));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const SERVICE_KEY = 'sk-service-env-secret';
const AZURE_KEY = 'azure-service-env-secret';
const CALLER_KEY = 'sk-caller-secret-for-this-job';

describe('service: API keys for text generation', function () {
  this.timeout(120_000);
  let attacker: Recorder;
  let own: Recorder;
  let service: ServiceProcess;
  let call: Call;
  let summary: unknown;

  before(async () => {
    attacker = await new Recorder().start();
    own = await new Recorder().start();
    service = await startService({
      // On the PostgreSQL backend the service is a team server: the caller's endpoint must be one its operator allows.
      args: ['--llm-endpoint', attacker.url],
      env: { OPENAI_API_KEY: SERVICE_KEY, OPENAI_BASE_URL: own.url, AZURE_OPENAI_API_KEY: AZURE_KEY, AZURE_OPENAI_ENDPOINT: own.url },
    });
    call = client(service.url, service.apiKey);
    const form = new FormData();
    form.append('file', new Blob([smallCsv()], { type: 'text/csv' }), 'small.csv');
    summary = (await call('POST', '/v1/autotrain/summarize-dataset', { body: form })).body;
  });

  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
    await Promise.all([attacker.stop(), own.stop()]);
  });

  const goals = (textgen_config: Record<string, unknown>) =>
    call('POST', '/v1/autotrain/generate_goals', { json: { team_id: null, req: { summary, n: 2, textgen_config } } });

  it('never sends the service\u2019s environment key to a base_url the caller chose', async () => {
    for (const provider of ['openai', 'azure']) {
      const res = await goals({ provider, base_url: attacker.url, model: 'm' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    assert.ok(attacker.seen.length >= 2, 'the loopback endpoint was called (it needs no key)');
    assert.deepEqual(attacker.credentials(), []);
  });

  it('uses the environment key for the environment\u2019s own endpoint only', async () => {
    const res = await goals({ provider: 'openai', model: 'm' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(own.credentials().includes(`Bearer ${SERVICE_KEY}`));
    assert.ok(!attacker.credentials().includes(`Bearer ${SERVICE_KEY}`));
  });

  it('keeps a caller\u2019s key for the running job only: it reaches the endpoint and never the database', async () => {
    attacker.seen.length = 0;
    const started = await call('POST', '/v1/autotrain/start_autotrain', {
      json: { team_id: null, req: { model_name: 'keyed', model_description: '', summary, label: 'label', textgen_config: { provider: 'openai', base_url: attacker.url, api_key: CALLER_KEY, model: 'm' } } },
    });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    for (;;) {
      const status = await call('GET', `/v1/autotrain/check_training_status?training_id=${started.body.training_id}`);
      if (status.body.status === 'completed' || status.body.status === 'failed') {
        assert.equal(status.body.status, 'completed', JSON.stringify(status.body));
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(attacker.credentials().includes(`Bearer ${CALLER_KEY}`), 'the job used the caller\u2019s key');
    const stored = await storedText(service);
    assert.ok(stored.includes('keyed'), 'the job is in the database');
    assert.ok(!stored.includes(CALLER_KEY), 'the key is not');
  });
});

describe('service: a job resumed after a restart has lost its caller\u2019s key', function () {
  this.timeout(180_000);
  let caller: Recorder;
  let own: Recorder;
  let service: ServiceProcess;

  before(async () => {
    caller = await new Recorder().start();
    own = await new Recorder().start();
  });

  after(async () => {
    await service?.stop();
    if (service) removeDir(service.dataDir);
    await Promise.all([caller.stop(), own.stop()]);
  });

  const summarize = async (call: Call, csv: string, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), name);
    return (await call('POST', '/v1/autotrain/summarize-dataset', { body: form })).body;
  };
  const statusOf = async (call: Call, id: string) => (await call('GET', `/v1/autotrain/check_training_status?training_id=${id}`)).body;

  it('runs without it (never stored), sends nothing secret to the caller\u2019s endpoint and logs why', async () => {
    const env = { OPENAI_API_KEY: SERVICE_KEY, OPENAI_BASE_URL: own.url };
    const args = ['--llm-endpoint', caller.url];
    service = await startService({ env, args });
    let call = client(service.url, service.apiKey);
    // A long job holds the only running slot, so the keyed one is still pending at the kill.
    const long = await call('POST', '/v1/autotrain/start_autotrain', {
      json: { team_id: null, req: { model_name: 'long', model_description: '', summary: await summarize(call, readFileSync(join(DATASETS, 'flights-20k.csv'), 'utf8'), 'flights.csv'), label: 'delay', model_type: 'regressor' } },
    });
    for (let s = await statusOf(call, long.body.training_id); s.status === 'pending'; s = await statusOf(call, long.body.training_id)) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const keyed = await call('POST', '/v1/autotrain/start_autotrain', {
      json: { team_id: null, req: { model_name: 'keyed', model_description: '', summary: await summarize(call, smallCsv(), 'small.csv'), label: 'label', textgen_config: { provider: 'openai', base_url: caller.url, api_key: CALLER_KEY, model: 'm' } } },
    });
    assert.equal(keyed.status, 202, JSON.stringify(keyed.body));
    assert.equal((await statusOf(call, keyed.body.training_id)).status, 'pending');
    await service.kill9();

    service = await startService({ dataDir: service.dataDir, env, args });
    call = client(service.url, service.apiKey);
    let done = await statusOf(call, keyed.body.training_id);
    while (done.status === 'pending' || done.status === 'running') {
      await new Promise((r) => setTimeout(r, 100));
      done = await statusOf(call, keyed.body.training_id);
    }
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.ok(caller.seen.length > 0, 'the resumed job still called its (loopback) endpoint');
    assert.deepEqual(caller.credentials(), [], 'with neither the lost key nor the service\u2019s key');
    assert.match(service.stderr(), /runs without its text-generation key/);
  });
});
