import type { TextGenConfig } from '../../contract';
import { resolveTextGen, type Env, type Fetcher, type TextGenContext } from '../../autotrain';
import { ApiError } from '../base/errors';
import { publicOnlyLookup, type LookupAll } from './addresses';
import { guardedFetch } from './guardedFetch';

const SETTING = 'serve --llm-endpoint URL (or XMODELS_LLM_ENDPOINTS)';

/** The operator's endpoints from `--llm-endpoint` values, else from XMODELS_LLM_ENDPOINTS (separated by spaces or commas). */
export function llmEndpointsFrom(given: readonly string[] | undefined, environment: string | undefined): string[] {
  const values = given ?? (environment ?? '').split(/[\s,]+/).filter(Boolean);
  return values.map((value) => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new Error(`${JSON.stringify(value)} is not an http:// or https:// URL such as http://10.0.0.5:11434/v1`);
    }
    return url.href;
  });
}

/** The endpoints the service's environment configures for its own key: the operator chose them too. */
export function environmentEndpoints(env: Env): string[] {
  return [env.OPENAI_BASE_URL, env.AZURE_OPENAI_ENDPOINT].filter((url): url is string => Boolean(url) && URL.canParse(url ?? ''));
}

function trimSlash(path: string): string {
  return path.replace(/\/+$/, '');
}

export interface LlmEndpointPolicyOptions {
  /** Endpoints the operator allows: every URL under one of them is called, whatever its address. */
  allowed: readonly string[];
  /**
   * Whether a caller may name any base_url and have it called wherever it points (the local service: loopback and the
   * embedded store). Otherwise a base_url must be under an allowed endpoint, and every other destination (the
   * providers' defaults, redirects) must be a public address.
   */
  callerEndpoints: boolean;
  /** How restricted destinations' names are resolved before their addresses are checked (default `dns.lookup`). */
  resolve?: LookupAll;
}

/** Which text-generation endpoints the service calls for its callers, and the `fetch` that holds to it. */
export class LlmEndpointPolicy {
  private readonly allowed: URL[];
  private readonly callerEndpoints: boolean;
  readonly fetch: Fetcher;

  constructor(options: LlmEndpointPolicyOptions) {
    this.allowed = options.allowed.map((url) => new URL(url));
    this.callerEndpoints = options.callerEndpoints;
    this.fetch = guardedFetch(this, publicOnlyLookup(options.resolve));
  }

  /** Whether `url` lies under an endpoint the operator allows (same scheme, host and port; the path at or below). */
  allows(url: URL): boolean {
    return this.allowed.some((endpoint) => {
      if (endpoint.protocol !== url.protocol || endpoint.host !== url.host) return false;
      const root = trimSlash(endpoint.pathname);
      return root === '' || trimSlash(url.pathname) === root || url.pathname.startsWith(`${root}/`);
    });
  }

  /** Whether a call to `url` may reach public addresses only. */
  restricts(url: URL): boolean {
    return !this.callerEndpoints && !this.allows(url);
  }

  /** Why this service does not call the caller's base_url, or undefined when it does (or none is given). */
  private refusalOf(config: Partial<TextGenConfig> | undefined): string | undefined {
    const baseUrl = config?.base_url;
    if (!baseUrl || this.callerEndpoints || config.provider?.toLowerCase() === 'rules') return undefined;
    if (URL.canParse(baseUrl) && this.allows(new URL(baseUrl))) return undefined;
    return `This service calls only the text generation endpoints its operator allows (it was started with --allow-remote or --database), and base_url ${baseUrl} is not one of them.`;
  }

  /** Refuses, with a 403 naming the setting, a caller's base_url this service does not call. */
  check(config: Partial<TextGenConfig> | undefined, field: string): void {
    const refusal = this.refusalOf(config);
    if (refusal) {
      throw new ApiError(403, 'FORBIDDEN', refusal, `Leave base_url out to use the service's own endpoint, or ask the operator to allow it with ${SETTING}.`, [
        { path: field, message: refusal },
      ]);
    }
  }

  /** The text generation of one operation: calls go through this policy; a base_url it refuses means rules, saying why. */
  context(config: Partial<TextGenConfig> | undefined, signal: AbortSignal): TextGenContext {
    const refusal = this.refusalOf(config);
    if (refusal) return { llm: null, warnings: [`${refusal} Answered from rules.`], signal };
    return resolveTextGen(config, process.env, { signal, fetch: this.fetch });
  }
}
