import assert from 'node:assert/strict';
import { parseSettings, type TextGenSettings } from '../../../src/common/settingsSchema';
import { textGenConfigFrom } from '../../../src/common/textgen';
import { TextGenConfigSchema } from '../../../src/contract/autotrain';
import { resolveTextGen } from '../../../src/autotrain';

function textgenSettings(raw: Record<string, unknown>): TextGenSettings {
  const { settings, problems } = parseSettings({ textgen: raw });
  assert.deepEqual(problems, []);
  return settings.textgen;
}

describe('text-generation config from the settings', () => {
  it('asks for rules by default and never sends a stored key with them', () => {
    const settings = textgenSettings({});
    assert.deepEqual(settings, { provider: 'rules', baseUrl: '', model: '', temperature: 0.2, maxTokens: 0, azureApiVersion: '' });
    const config = textGenConfigFrom({ ...settings, model: 'gpt-4o', baseUrl: 'https://api.openai.com/v1' }, 'sk-stored');
    assert.deepEqual(config, { provider: 'rules', temperature: 0.2, n: 1 });
    assert.equal(resolveTextGen(config, { OPENAI_API_KEY: 'sk-env' }).llm, null);
  });

  it('sends only the settings that are set, with the stored key trimmed', () => {
    const config = textGenConfigFrom(textgenSettings({ provider: 'openai', model: ' gpt-4o ', temperature: 0, maxTokens: 800 }), '  sk-test-1234 \n');
    assert.deepEqual(config, { provider: 'openai', temperature: 0, n: 1, model: 'gpt-4o', max_tokens: 800, api_key: 'sk-test-1234' });
    assert.deepEqual(TextGenConfigSchema.parse(config), config, 'the service accepts it as it is');
  });

  it('leaves the key to the service environment when none is stored', () => {
    const withoutKey = textGenConfigFrom(textgenSettings({ provider: 'openai' }), undefined);
    assert.equal('api_key' in withoutKey, false);
    assert.equal('api_key' in textGenConfigFrom(textgenSettings({ provider: 'openai' }), '   '), false);
    const endpoint = resolveTextGen(withoutKey, { OPENAI_API_KEY: 'sk-env-5678' }).llm;
    assert.equal(endpoint?.headers.authorization, 'Bearer sk-env-5678');
    assert.equal(endpoint?.model, 'gpt-4o-mini');
  });

  it('sends the Azure API version for Azure only, and the service builds the deployment URL from it', () => {
    const azure = textGenConfigFrom(
      textgenSettings({ provider: 'azure', baseUrl: 'https://acme.openai.azure.com/', model: 'gpt4o-deploy', azureApiVersion: '2024-10-21' }),
      'azure-key-0001',
    );
    assert.deepEqual(azure, {
      provider: 'azure', temperature: 0.2, n: 1, model: 'gpt4o-deploy', base_url: 'https://acme.openai.azure.com', api_key: 'azure-key-0001', api_version: '2024-10-21',
    });
    const endpoint = resolveTextGen(azure, {}).llm;
    assert.equal(endpoint?.url, 'https://acme.openai.azure.com/openai/deployments/gpt4o-deploy/chat/completions?api-version=2024-10-21');
    assert.equal(endpoint?.headers['api-key'], 'azure-key-0001');

    const openai = textGenConfigFrom(textgenSettings({ provider: 'openai', azureApiVersion: '2024-10-21' }), undefined);
    assert.equal('api_version' in openai, false);
  });

  it('points Ollama and custom endpoints at the configured address without requiring a key', () => {
    const ollama = textGenConfigFrom(textgenSettings({ provider: 'ollama' }), undefined);
    assert.deepEqual(ollama, { provider: 'ollama', temperature: 0.2, n: 1 });
    assert.equal(resolveTextGen(ollama, {}).llm?.url, 'http://localhost:11434/v1/chat/completions');

    const custom = textGenConfigFrom(textgenSettings({ provider: 'custom', baseUrl: 'http://127.0.0.1:1234/v1/', model: 'qwen2.5-7b' }), undefined);
    assert.deepEqual(custom, { provider: 'custom', temperature: 0.2, n: 1, model: 'qwen2.5-7b', base_url: 'http://127.0.0.1:1234/v1' });
    const endpoint = resolveTextGen(custom, {}).llm;
    assert.equal(endpoint?.url, 'http://127.0.0.1:1234/v1/chat/completions');
    assert.equal(endpoint?.model, 'qwen2.5-7b');
  });

  it('replaces invalid text-generation settings by their defaults and names each one', () => {
    const { settings, problems } = parseSettings({
      textgen: { provider: 'anthropic', baseUrl: 'ftp://llm.example.com', temperature: 3, maxTokens: 12.5, model: 'llama3.1' },
    });
    assert.deepEqual(settings.textgen, { provider: 'rules', baseUrl: '', model: 'llama3.1', temperature: 0.2, maxTokens: 0, azureApiVersion: '' });
    assert.equal(problems.length, 4, problems.join('\n'));
    for (const [setting, value] of [['provider', '"anthropic"'], ['baseUrl', '"ftp://llm.example.com"'], ['temperature', '3'], ['maxTokens', '12.5']]) {
      assert.ok(problems.some((p) => p.startsWith(`xmodels.textgen.${setting} `) && p.includes(`(got ${value})`)), problems.join('\n'));
    }
  });
});
