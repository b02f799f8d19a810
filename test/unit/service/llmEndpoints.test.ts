import assert from 'node:assert/strict';
import { client, removeDir, runCli, startService, storedText, TEST_BACKEND, type Call, type ServiceProcess } from './harness';
import { smallCsv } from './fixtures';
import { testCluster } from './postgresCluster';
import { FakeLlm, UPSTREAM_SECRET } from './textgen/fakeLlm';

async function summarize(call: Call, form = new FormData()): Promise<Record<string, unknown>> {
  form.append('file', new Blob([smallCsv()], { type: 'text/csv' }), 'small.csv');
  const res = await call('POST', '/v1/autotrain/summarize-dataset', { body: form });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

const goals = (call: Call, summary: unknown, textgen_config: Record<string, unknown>) =>
  call('POST', '/v1/autotrain/generate_goals', { json: { team_id: null, req: { summary, n: 2, textgen_config } } });

describe('service: text-generation endpoints on a team server', function () {
  this.timeout(120_000);
  const allowed = new FakeLlm();
  const forbidden = new FakeLlm();
  let service: ServiceProcess;
  let call: Call;
  let summary: Record<string, unknown>;

  before(async () => {
    await Promise.all([allowed.start(), forbidden.start()]);
    service = await startService({ args: ['--allow-remote', '--llm-endpoint', allowed.url()] });
    call = client(service.url, service.apiKey);
    summary = await summarize(call);
  });
  beforeEach(() => {
    allowed.requests.length = 0;
    forbidden.requests.length = 0;
    allowed.reply = 'goals';
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
    await Promise.all([allowed.stop(), forbidden.stop()]);
  });

  it('refuses base URLs at 127.0.0.1, 10.0.0.1, 169.254.169.254 and localhost with a 403 naming the setting, calling none', async () => {
    for (const base_url of [forbidden.url(), 'http://10.0.0.1/v1', 'http://169.254.169.254/latest', forbidden.url('localhost')]) {
      const res = await goals(call, summary, { provider: 'openai', base_url, model: 'm', api_key: 'sk-caller' });
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'FORBIDDEN');
      assert.ok(res.body.detail.includes(`base_url ${base_url} is not one of them`), res.body.detail);
      assert.match(res.body.error.suggestion, /serve --llm-endpoint URL \(or XMODELS_LLM_ENDPOINTS\)/);
      assert.deepEqual(res.body.error.fields.map((f: { path: string }) => f.path), ['req.textgen_config.base_url']);
    }
    const ollama = await goals(call, summary, { provider: 'ollama', base_url: forbidden.url() });
    assert.equal(ollama.status, 403, 'a provider that needs no key is refused too');
    assert.equal(forbidden.requests.length, 0);
  });

  it('refuses them on every route that calls text generation, before uploading or queueing anything', async () => {
    const textgen_config = { provider: 'openai', base_url: forbidden.url(), model: 'm' };
    const form = new FormData();
    form.append('textgen_config', JSON.stringify(textgen_config));
    form.append('file', new Blob([smallCsv()], { type: 'text/csv' }), 'refused.csv');
    const upload = await call('POST', '/v1/autotrain/summarize-dataset', { body: form });
    assert.equal(upload.status, 403, JSON.stringify(upload.body));
    assert.deepEqual(upload.body.error.fields.map((f: { path: string }) => f.path), ['textgen_config.base_url']);
    const datasets = await call('GET', '/v1/datasets');
    assert.ok(!JSON.stringify(datasets.body).includes('refused.csv'), 'the refused upload was not kept');

    const started = await call('POST', '/v1/autotrain/start_autotrain', {
      json: { team_id: null, req: { model_name: 'refused-job', model_description: '', summary, label: 'label', textgen_config } },
    });
    assert.equal(started.status, 403, JSON.stringify(started.body));
    assert.ok(!(await storedText(service)).includes('refused-job'), 'no job was stored');
    for (const [path, extra] of [
      ['/v1/autotrain/summarize', { dataset_id: summary.dataset_id }],
      ['/v1/autotrain/generate_labels', { summary }],
      ['/v1/autotrain/generate_feature_engineering', { summary }],
    ] as const) {
      const res = await call('POST', path, { json: { team_id: null, req: { ...extra, textgen_config } } });
      assert.equal(res.status, 403, `${path}: ${JSON.stringify(res.body)}`);
    }
    assert.equal(forbidden.requests.length, 0);
  });

  it('calls the operator-allowed endpoint, at a loopback address too', async () => {
    const res = await goals(call, summary, { provider: 'openai', base_url: allowed.url(), model: 'm', api_key: 'sk-caller' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.source, 'llm', JSON.stringify(res.body.warnings));
    assert.equal(res.body.goals[0].visualization, 'histogram of x');
    assert.equal(allowed.requests.length, 1);
    assert.equal(allowed.requests[0].headers.authorization, 'Bearer sk-caller');
  });

  it('refuses a redirect from the allowed endpoint to a forbidden address, in its own words', async () => {
    for (const target of [forbidden.url(), forbidden.url('localhost')]) {
      allowed.reply = { redirect: `${target}/chat/completions` };
      const res = await goals(call, summary, { provider: 'openai', base_url: allowed.url(), model: 'm' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.source, 'rules');
      assert.match(res.body.warnings[0], new RegExp(`endpoint 127\\.0\\.0\\.1:${allowed.port} redirected to ${new URL(target).host}, which (is|resolves to) .*loopback address; .*--llm-endpoint`));
    }
    assert.equal(forbidden.requests.length, 0);
  });

  it('gets no request through to any IPv6 form of a forbidden address, as base_url or as a redirect', async () => {
    const forms = ['::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::7f00:1', '2002:7f00:1::1', '2001::7f00:1', '::ffff:0:127.0.0.1', 'fec0::1'];
    for (const form of forms) {
      const target = `http://[${form}]:${forbidden.port}/v1`;
      const direct = await goals(call, summary, { provider: 'openai', base_url: target, model: 'm' });
      assert.equal(direct.status, 403, `${form}: ${JSON.stringify(direct.body)}`);
      allowed.reply = { redirect: `${target}/chat/completions` };
      const res = await goals(call, summary, { provider: 'openai', base_url: allowed.url(), model: 'm' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.source, 'rules', form);
      assert.match(res.body.warnings[0], /redirected to \[.*\]:\d+, which is (an IPv6 address that carries an IPv4 address|a NAT64 address of|a site-local address)/, form);
    }
    assert.equal(forbidden.requests.length, 0);
  });

  it('says which host answered which status and never repeats the answer\u2019s body', async () => {
    allowed.reply = 'error';
    const res = await goals(call, summary, { provider: 'openai', base_url: allowed.url(), model: 'm' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.source, 'rules');
    assert.match(res.body.warnings[0], new RegExp(`the text generation endpoint 127\\.0\\.0\\.1:${allowed.port} answered HTTP 500`));
    assert.ok(!JSON.stringify(res.body).includes(UPSTREAM_SECRET));
  });

  it('keeps the service\u2019s own default endpoints to public addresses: Ollama on localhost needs --llm-endpoint', async () => {
    const res = await goals(call, summary, { provider: 'ollama' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.source, 'rules');
    assert.match(res.body.warnings[0], /endpoint localhost:11434 resolves to .*, a loopback address; .*--llm-endpoint/);
  });
});

describe('service: which services call the caller\u2019s text-generation endpoint', function () {
  this.timeout(120_000);
  const endpoint = new FakeLlm();

  before(() => endpoint.start());
  after(() => endpoint.stop());

  it('the local service (loopback, embedded store) calls it as before; one on the network or on PostgreSQL does not', async () => {
    const cases: [{ args?: string[]; database?: string }, boolean][] = [
      [{ database: await (await testCluster()).createDatabase() }, false],
      // Every service of the PostgreSQL backend runs with --database.
      ...(TEST_BACKEND === 'sqlite' ? [[{}, true] as [{ args?: string[] }, boolean]] : []),
    ];
    for (const [options, called] of cases) {
      endpoint.requests.length = 0;
      const service = await startService(options);
      const call = client(service.url, service.apiKey);
      const res = await goals(call, await summarize(call), { provider: 'openai', base_url: endpoint.url(), model: 'm' });
      assert.equal(res.status, called ? 200 : 403, JSON.stringify(res.body));
      if (called) assert.equal(res.body.source, 'llm');
      assert.equal(endpoint.requests.length, called ? 1 : 0);
      await service.stop();
      removeDir(service.dataDir);
    }
  });

  it('serve refuses an --llm-endpoint or XMODELS_LLM_ENDPOINTS that is not an http(s) URL, naming it', async () => {
    const flag = await runCli(['serve', '--port', '0', '--llm-endpoint', 'ollama:11434/v1']);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /xmodels: "ollama:11434\/v1" is not an http:\/\/ or https:\/\/ URL .* \(--llm-endpoint URL or XMODELS_LLM_ENDPOINTS\)/);
    const env = await runCli(['serve', '--port', '0'], { XMODELS_LLM_ENDPOINTS: 'https://ok.example/v1 gopher://old.example' });
    assert.equal(env.code, 2);
    assert.match(env.stderr, /"gopher:\/\/old\.example"/);
  });
});
