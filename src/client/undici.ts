/**
 * The parts of undici the client uses: a keep-alive agent, a proxy agent and `dispatcher.request`. They come from
 * undici's own modules because its main entry also loads fetch, WebSocket, caches and mocks (about half a megabyte
 * of the extension bundle). Wiring `request` and `connect` (the proxy agent's tunnel) onto the dispatcher prototype
 * is what that entry does too, with `stream`, `pipeline` and `upgrade`, which nothing here uses.
 */
import type { Agent as AgentClass, Dispatcher, ProxyAgent as ProxyAgentClass } from 'undici';
import AgentModule from 'undici/lib/dispatcher/agent.js';
import DispatcherModule from 'undici/lib/dispatcher/dispatcher.js';
import ProxyAgentModule from 'undici/lib/dispatcher/proxy-agent.js';
import connectApi from 'undici/lib/api/api-connect.js';
import requestApi from 'undici/lib/api/api-request.js';

DispatcherModule.prototype.request = requestApi;
DispatcherModule.prototype.connect = connectApi;

export const Agent: typeof AgentClass = AgentModule;
export const ProxyAgent: typeof ProxyAgentClass = ProxyAgentModule;
export type { Dispatcher };

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** `undici.request(url, …)` through the given dispatcher. */
export function request(dispatcher: Dispatcher, url: URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  return dispatcher.request({ ...options, origin: url.origin, path: `${url.pathname}${url.search}` });
}
