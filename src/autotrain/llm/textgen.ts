import type { TextGenConfig } from '../../contract/autotrain';

/** What a chat-completions call needs of `fetch`; the service passes one that applies its outbound rules. */
export type Fetcher = (url: string, init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal }) => Promise<Response>;

/** A resolved OpenAI-compatible chat-completions endpoint. */
export interface LlmEndpoint {
  provider: string;
  /** Full URL of the chat-completions call (query string included for Azure). */
  url: string;
  model: string;
  headers: Record<string, string>;
  params: { temperature: number; max_tokens?: number; top_p?: number; n: number };
  timeoutMs: number;
  /** How the call is made; the global `fetch` when absent. */
  fetch?: Fetcher;
}

/** Where an operation gets its text from: `llm` null means deterministic rules. */
export interface TextGenContext {
  llm: LlmEndpoint | null;
  /** Problems with the configuration that made the operation fall back to rules. */
  warnings: string[];
  signal?: AbortSignal;
}

export interface TextGenOverrides {
  signal?: AbortSignal;
  /** Used when the config sets no `timeout_ms`. */
  timeoutMs?: number;
  fetch?: Fetcher;
}

export type Env = Record<string, string | undefined>;

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_AZURE_API_VERSION = '2024-06-01';
const DEFAULT_MODELS: Record<string, string> = { openai: 'gpt-4o-mini', ollama: 'llama3.2' };
const OLLAMA_BASE_URL = 'http://localhost:11434/v1';
const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** The rules-only context: no provider, no warnings. */
export const RULES_CONTEXT: TextGenContext = { llm: null, warnings: [] };

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host === '::1';
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Whether two endpoint URLs name the same place (scheme, host, port and path; trailing slashes aside). */
function sameEndpoint(a: string, b: string | undefined): boolean {
  if (!b) return false;
  try {
    const x = new URL(a);
    const y = new URL(b);
    return x.origin === y.origin && trimSlash(x.pathname) === trimSlash(y.pathname);
  } catch {
    return false;
  }
}

/**
 * The key for a call: the caller's own, else the service's key from its environment, but only when the call goes
 * to the endpoint that key belongs to. A caller-chosen base_url never receives the service's key.
 */
function keyFor(cfg: Partial<TextGenConfig>, envKey: string | undefined, envEndpoint: string): string | undefined {
  if (cfg.api_key) return cfg.api_key;
  return cfg.base_url === undefined || sameEndpoint(cfg.base_url, envEndpoint) ? envKey || undefined : undefined;
}

function rules(warning: string, overrides: TextGenOverrides): TextGenContext {
  return { llm: null, warnings: [warning], signal: overrides.signal };
}

/**
 * Turns a TextGenConfig (plus OPENAI_BASE_URL / OPENAI_API_KEY and the Azure variables of `env`) into an endpoint.
 * An environment key goes only to its own endpoint; another base_url needs the caller's api_key.
 * No provider (and no base_url), or provider "rules", means deterministic rules. A provider that cannot be used
 * (e.g. Azure without an endpoint, a hosted endpoint without a key) also means rules, with a warning saying why.
 */
export function resolveTextGen(config: Partial<TextGenConfig> | undefined, env: Env, overrides: TextGenOverrides = {}): TextGenContext {
  const cfg = config ?? {};
  const provider = (cfg.provider ?? (cfg.base_url ? 'openai' : 'rules')).toLowerCase();
  if (provider === 'rules') return { llm: null, warnings: [], signal: overrides.signal };
  const params = {
    temperature: cfg.temperature ?? 0.2,
    n: cfg.n ?? 1,
    ...(cfg.max_tokens !== undefined ? { max_tokens: cfg.max_tokens } : {}),
    ...(cfg.top_p !== undefined ? { top_p: cfg.top_p } : {}),
  };
  const timeoutMs = cfg.timeout_ms ?? overrides.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const how = overrides.fetch ? { fetch: overrides.fetch } : {};

  if (provider === 'azure') {
    const base = cfg.base_url ?? env.AZURE_OPENAI_ENDPOINT;
    const key = env.AZURE_OPENAI_ENDPOINT ? keyFor(cfg, env.AZURE_OPENAI_API_KEY, env.AZURE_OPENAI_ENDPOINT) : cfg.api_key;
    if (!base) return rules('Text generation provider "azure" needs base_url (the resource or deployment URL); answered from rules.', overrides);
    const deploymentUrl = /\/openai\/deployments\/[^/]+/.test(base);
    if (!deploymentUrl && !cfg.model) return rules('Text generation provider "azure" needs model (the deployment name); answered from rules.', overrides);
    if (key) headers['api-key'] = key;
    else if (!isLoopback(base)) {
      const which = sameEndpoint(base, env.AZURE_OPENAI_ENDPOINT)
        ? 'api_key or AZURE_OPENAI_API_KEY'
        : "api_key; the service's AZURE_OPENAI_API_KEY is only sent to its AZURE_OPENAI_ENDPOINT";
      return rules(`Text generation provider "azure" at ${base} needs an API key (${which}); answered from rules.`, overrides);
    }
    const root = deploymentUrl ? trimSlash(base) : `${trimSlash(base)}/openai/deployments/${encodeURIComponent(cfg.model ?? '')}`;
    const url = `${root.replace(/\/chat\/completions$/, '')}/chat/completions?api-version=${encodeURIComponent(cfg.api_version ?? DEFAULT_AZURE_API_VERSION)}`;
    const model = cfg.model ?? decodeURIComponent(/\/openai\/deployments\/([^/]+)/.exec(base)?.[1] ?? '');
    return { llm: { provider, url, model, headers, params, timeoutMs, ...how }, warnings: [], signal: overrides.signal };
  }

  const envEndpoint = env.OPENAI_BASE_URL || OPENAI_BASE_URL;
  const base = cfg.base_url ?? (provider === 'ollama' ? OLLAMA_BASE_URL : envEndpoint);
  const key = provider === 'ollama' ? cfg.api_key : keyFor(cfg, env.OPENAI_API_KEY, envEndpoint);
  const model = cfg.model ?? DEFAULT_MODELS[provider];
  if (!model) return rules(`Text generation provider "${provider}" needs model; answered from rules.`, overrides);
  if (key) headers.authorization = `Bearer ${key}`;
  else if (!isLoopback(base) && provider !== 'ollama') {
    const which = sameEndpoint(base, envEndpoint) ? 'api_key or OPENAI_API_KEY' : `api_key; the service's OPENAI_API_KEY is only sent to ${envEndpoint}`;
    return rules(`Text generation provider "${provider}" at ${base} needs an API key (${which}); answered from rules.`, overrides);
  }
  const url = `${trimSlash(base).replace(/\/chat\/completions$/, '')}/chat/completions`;
  return { llm: { provider, url, model, headers, params, timeoutMs, ...how }, warnings: [], signal: overrides.signal };
}
