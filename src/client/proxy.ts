export interface ProxySettings {
  /** Proxy URL; `null` never uses one; `undefined` reads HTTPS_PROXY / HTTP_PROXY. */
  proxy?: string | null;
  /** Comma-separated hosts that bypass the proxy; `undefined` reads NO_PROXY. */
  noProxy?: string;
}

type Env = Record<string, string | undefined>;

/**
 * The proxy URL to use for `target`, or undefined for a direct connection. An explicit proxy applies to every host not
 * in NO_PROXY; a proxy from the environment also never applies to loopback hosts, so a local service keeps working
 * behind a corporate proxy.
 */
export function resolveProxy(target: URL, settings: ProxySettings, env: Env = process.env): string | undefined {
  if (settings.proxy === null) return undefined;
  const noProxy = settings.noProxy ?? envValue(env, 'NO_PROXY') ?? '';
  if (matchesNoProxy(target, noProxy)) return undefined;
  if (settings.proxy !== undefined) return settings.proxy.trim() || undefined;
  if (isLoopback(target.hostname)) return undefined;
  const fromEnv =
    target.protocol === 'https:'
      ? (envValue(env, 'HTTPS_PROXY') ?? envValue(env, 'HTTP_PROXY'))
      : envValue(env, 'HTTP_PROXY');
  return fromEnv?.trim() || undefined;
}

function envValue(env: Env, name: string): string | undefined {
  return env[name] ?? env[name.toLowerCase()];
}

/** NO_PROXY entries: `*`, a host, `.suffix` or `suffix` (matches subdomains), each optionally with `:port`. */
export function matchesNoProxy(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  return noProxy
    .split(/[,\s]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      const [, entryHost = entry, entryPort] = /^(.*?)(?::(\d+))?$/.exec(entry) ?? [];
      if (entryPort && entryPort !== port) return false;
      const bare = entryHost.replace(/^\*?\./, '');
      return host === bare || host.endsWith(`.${bare}`);
    });
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
