import type { TextGenConfig } from '../contract/autotrain';
import type { TextGenSettings } from './settingsSchema';

/**
 * The `textgen_config` sent with every autotrain call. With the `rules` provider no address, model or key is sent;
 * otherwise each setting left empty is omitted, so the service falls back to its presets and to its environment
 * (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, the Azure variables).
 */
export function textGenConfigFrom(settings: TextGenSettings, apiKey: string | undefined): TextGenConfig {
  if (settings.provider === 'rules') return { provider: 'rules', temperature: settings.temperature, n: 1 };
  const key = apiKey?.trim();
  return {
    provider: settings.provider,
    temperature: settings.temperature,
    n: 1,
    ...(settings.model ? { model: settings.model } : {}),
    ...(settings.baseUrl ? { base_url: settings.baseUrl } : {}),
    ...(settings.maxTokens > 0 ? { max_tokens: settings.maxTokens } : {}),
    ...(key ? { api_key: key } : {}),
    ...(settings.provider === 'azure' && settings.azureApiVersion ? { api_version: settings.azureApiVersion } : {}),
  };
}
