// The text-generation provider in a real VS Code: the key command stores and removes the key in SecretStorage, and
// an autotrain command sends the configured provider, model and key, so the service calls a local stand-in for a
// chat-completions endpoint.
import * as assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { InputRequest, Prompter } from '../../../src/prompts/prompter';
import type { XModelsExtensionApi } from '../../../src/extension';

interface ChatCall {
  url: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; temperature?: number };
}

/** A chat-completions endpoint whose answer is never JSON, so the service falls back to rules with a warning. */
async function startChatStub(calls: ChatCall[]): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      calls.push({ url: request.url ?? '', headers: request.headers, body: JSON.parse(raw) as ChatCall['body'] });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'no JSON here' } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

/** Answers the key prompt with `answer` and records the prompt. */
function keyInputs(answer: string, asked: InputRequest[]): Prompter {
  const unexpected = () => Promise.reject(new Error('only the key prompt was expected'));
  return {
    input: async (request) => {
      asked.push(request);
      return answer;
    },
    pickOne: unexpected,
    pickMany: unexpected,
    pickCsvFile: unexpected,
    confirm: unexpected,
  };
}

async function setKey(api: XModelsExtensionApi, answer: string): Promise<InputRequest[]> {
  const asked: InputRequest[] = [];
  const failures: string[] = [];
  const listener = api.commands.onDidFailCommand((failure) => failures.push(failure.message));
  api.inputs.use(keyInputs(answer, asked));
  try {
    await vscode.commands.executeCommand('xmodels.textgen.setApiKey');
  } finally {
    api.inputs.use(undefined);
    listener.dispose();
  }
  assert.deepEqual(failures, []);
  return asked;
}

describe('text-generation provider', function () {
  this.timeout(120_000);
  const config = () => vscode.workspace.getConfiguration('xmodels');
  const settingKeys = ['textgen.provider', 'textgen.baseUrl', 'textgen.model', 'textgen.temperature'];
  let api: XModelsExtensionApi;
  const calls: ChatCall[] = [];
  let stub: { server: Server; baseUrl: string };

  before(async () => {
    const ext = vscode.extensions.getExtension<XModelsExtensionApi>('xmodels.xmodels');
    assert.ok(ext, 'the XModels extension is not installed');
    api = await ext.activate();
    stub = await startChatStub(calls);
  });

  after(async () => {
    await setKey(api, '');
    for (const key of settingKeys) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    stub.server.close();
  });

  it('asks for rules by default, without the stored key', async () => {
    const asked = await setKey(api, 'sk-host-rules-0001');
    assert.equal(asked[0].password, true);
    assert.deepEqual(await api.services.textGenConfig(), { provider: 'rules', temperature: 0.2, n: 1 });
  });

  it('sends the configured provider, model and stored key with an autotrain call, and drops the key once removed', async () => {
    await config().update('textgen.provider', 'custom', vscode.ConfigurationTarget.Global);
    await config().update('textgen.baseUrl', `${stub.baseUrl}/`, vscode.ConfigurationTarget.Global);
    await config().update('textgen.model', 'stub-model', vscode.ConfigurationTarget.Global);
    await config().update('textgen.temperature', 0, vscode.ConfigurationTarget.Global);
    await setKey(api, '  sk-host-test-4242  ');
    assert.deepEqual(await api.services.textGenConfig(), {
      provider: 'custom', temperature: 0, n: 1, model: 'stub-model', base_url: stub.baseUrl, api_key: 'sk-host-test-4242',
    });

    const csv = join(mkdtempSync(join(tmpdir(), 'xmodels-textgen-')), 'spend.csv');
    writeFileSync(csv, `plan,monthly,calls\n${Array.from({ length: 40 }, (_, i) => `${['basic', 'pro'][i % 2]},${20 + i},${i % 7}`).join('\n')}\n`);
    const client = await api.services.getClient();
    const summary = await client.autotrain.summarizeDataset({ file_path: csv });
    const { goals } = await client.autotrain.generateGoals({ summary });
    calls.length = 0;
    const result = (await vscode.commands.executeCommand('xmodels.autotrain.insights', { summary, goal: goals[0] })) as
      { insights: { source: string; warnings: string[] }; document: vscode.TextDocument } | undefined;
    assert.ok(result, 'the insights command returned its result');
    assert.ok(calls.length > 0, 'the service called the configured endpoint');
    assert.equal(calls[0].url, '/v1/chat/completions');
    assert.equal(calls[0].headers.authorization, 'Bearer sk-host-test-4242');
    assert.equal(calls[0].body.model, 'stub-model');
    assert.equal(calls[0].body.temperature, 0);
    assert.equal(result.insights.source, 'rules', 'an answer without JSON is replaced by rules');
    assert.ok(result.insights.warnings.length > 0, 'with a warning saying so');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    await setKey(api, '');
    assert.equal('api_key' in (await api.services.textGenConfig()), false);
  });
});
