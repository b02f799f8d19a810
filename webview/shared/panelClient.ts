/** The webview's end of the panel protocol: `ready` handshake, requests with ids, persisted state. */
import {
  LatestRequests,
  parseHostMessage,
  Preloads,
  RequestTracker,
  type PanelApis,
  type PanelArgs,
  type PanelKind,
  type ParamsOf,
  type PersistedState,
  type ResultOf,
  type WebviewMessage,
} from '../../src/views/protocol.js';
import { vscodeApi } from './vscodeApi.js';

/** Rejection of a request that a newer request of the same method replaced; panels ignore it. */
export class SupersededError extends Error {
  override readonly name = 'SupersededError';
}

export interface PanelClient<K extends PanelKind, Ui> {
  readonly args: PanelArgs[K];
  /** Sends a request; a newer request of the same method supersedes it (it then rejects with SupersededError). */
  request<M extends keyof PanelApis[K] & string>(method: M, params: ParamsOf<PanelApis[K], M>): Promise<ResultOf<PanelApis[K], M>>;
  /** The panel's UI state (selection, sort, filters) saved with the arguments. */
  readonly ui: Partial<Ui>;
  saveUi(ui: Partial<Ui>): void;
}

/**
 * Connects to the host: posts `ready`, waits for `init` with the panel's arguments, then calls `start` once.
 * The arguments are saved in the webview state, which the host's serializer reads to restore the panel.
 */
export function connectPanel<K extends PanelKind, Ui>(start: (client: PanelClient<K, Ui>) => void): void {
  const api = vscodeApi<PersistedState<PanelArgs[K], Partial<Ui>>>();
  const tracker = new RequestTracker();
  const latest = new LatestRequests();
  const preloads = new Preloads();
  let started = false;

  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message = parseHostMessage<PanelArgs[K]>(event.data);
    if (!message) return;
    if (message.kind === 'response') {
      tracker.settle(message);
      return;
    }
    if (started) return;
    started = true;
    if (message.preloaded) preloads.keep(message.preloaded);
    const saved = api.getState();
    let ui: Partial<Ui> = saved?.ui ?? {};
    api.setState({ args: message.args, ui });
    start({
      args: message.args,
      get ui() {
        return ui;
      },
      saveUi(next) {
        ui = { ...ui, ...next };
        api.setState({ args: message.args, ui });
      },
      async request(method, params) {
        const { id, result } = tracker.start<ResultOf<PanelApis[K], typeof method>>();
        latest.begin(method, id);
        const preloaded = preloads.take(method, params);
        if (preloaded) return preloaded.result as ResultOf<PanelApis[K], typeof method>;
        api.postMessage({ kind: 'request', id, method, params } as WebviewMessage<PanelApis[K]>);
        try {
          const value = await result;
          if (!latest.isCurrent(method, id)) throw new SupersededError(method);
          return value;
        } catch (error) {
          if (!latest.isCurrent(method, id)) throw new SupersededError(method);
          throw error;
        }
      },
    });
  });
  api.postMessage({ kind: 'ready' } satisfies WebviewMessage<PanelApis[K]>);
}
