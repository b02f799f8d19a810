import * as tls from 'node:tls';
import type { XModelsClientOptions } from '../client';
import type { VSCodeHttpSettings } from '../common/settingsSchema';

export type NetworkOptions = Pick<XModelsClientOptions, 'proxy' | 'noProxy' | 'proxyAuthorization' | 'tls'>;

/** The operating system's trusted certificates where Node can read them (22.15 and later), else none. */
export function systemCertificates(): readonly string[] {
  const read = (tls as { getCACertificates?: (type: 'system') => string[] }).getCACertificates;
  try {
    return read ? read('system') : [];
  } catch {
    return [];
  }
}

/**
 * The hosted client's network options: the `xmodels.network.proxy` setting, else VS Code's `http.proxy` (with its
 * `http.noProxy` and `http.proxyAuthorization`); `http.proxyStrictSSL` decides whether certificates are verified
 * and `http.systemCertificates` adds the operating system's to Node's own.
 */
export function hostedNetworkOptions(ownProxy: string, http: VSCodeHttpSettings, osCertificates: () => readonly string[]): NetworkOptions {
  const proxy = ownProxy.trim() || http.proxy.trim();
  const fromVSCode = !ownProxy.trim() && proxy !== '';
  const ca = http.systemCertificates ? osCertificates() : [];
  return {
    proxy: proxy || undefined,
    ...(fromVSCode && http.noProxy.length ? { noProxy: http.noProxy.join(',') } : {}),
    ...(fromVSCode && http.proxyAuthorization ? { proxyAuthorization: http.proxyAuthorization } : {}),
    tls: { ...(ca.length ? { ca } : {}), ...(http.proxyStrictSSL ? {} : { rejectUnauthorized: false }) },
  };
}
