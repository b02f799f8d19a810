import * as vscode from 'vscode';
import { describeError } from '../common/errors';
import { EarlyLoad } from './earlyLoad';
import { createNonce, renderPanelHtml } from './html';
import {
  LatestRequests,
  parseWebviewMessage,
  VIEW_TYPES,
  type HostMessage,
  type PanelApis,
  type PanelArgs,
  type PanelError,
  type PanelKind,
  type ParamsOf,
  type PersistedState,
  type Preloaded,
  type ResultOf,
} from '../views/protocol';

export interface RequestContext<K extends PanelKind> {
  args: PanelArgs[K];
  signal: AbortSignal;
}

export type PanelHandlers<K extends PanelKind> = {
  [M in keyof PanelApis[K] & string]: (
    params: ParamsOf<PanelApis[K], M>,
    context: RequestContext<K>,
  ) => Promise<ResultOf<PanelApis[K], M>>;
};

export interface PanelDefinition<K extends PanelKind> {
  kind: K;
  title(args: PanelArgs[K]): string;
  /** Identifies the object shown: one panel per key. */
  key(args: PanelArgs[K]): string;
  /** Validates command arguments and arguments restored from webview state. */
  parseArgs(raw: unknown): PanelArgs[K] | undefined;
  /** A more telling title once the data is known. */
  loadedTitle?(result: ResultOf<PanelApis[K], 'load' & keyof PanelApis[K]>, args: PanelArgs[K]): string;
  /**
   * The webview's first request is `load` with the panel's arguments: the host starts it with the panel, while the
   * webview is still starting, and answers that request with it.
   */
  loadsArgsFirst?: true;
  handlers: PanelHandlers<K>;
}

/** How the first data request of a shown panel ended (what tests and the bench wait for). */
export interface PanelLoad {
  viewType: string;
  ok: boolean;
  error?: PanelError;
}

export interface ShownPanel {
  viewType: string;
  key: string;
  /** Settles when the panel has answered its first `load` request (at once for a panel that was open). */
  loaded: Promise<PanelLoad>;
}

interface OpenPanel<K extends PanelKind> {
  panel: vscode.WebviewPanel;
  args: PanelArgs[K];
  loaded: Promise<PanelLoad>;
}

/** Hosts the panels of one kind: one per object, restored after reload, answering its webview's requests. */
export class PanelHost<K extends PanelKind> implements vscode.Disposable {
  private readonly open = new Map<string, OpenPanel<K>>();
  private readonly disposables: vscode.Disposable[] = [];
  readonly viewType: string;

  constructor(
    private readonly definition: PanelDefinition<K>,
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.viewType = VIEW_TYPES[definition.kind];
    this.disposables.push(
      vscode.window.registerWebviewPanelSerializer(this.viewType, {
        deserializeWebviewPanel: async (panel, state: unknown) => this.restore(panel, state),
      }),
    );
  }

  /** Reveals the panel showing these arguments' object, or opens one. */
  show(args: PanelArgs[K]): ShownPanel {
    const key = this.definition.key(args);
    const existing = this.open.get(key);
    if (existing) {
      existing.panel.reveal(undefined, false);
      return { viewType: this.viewType, key, loaded: existing.loaded };
    }
    const column = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    const panel = vscode.window.createWebviewPanel(
      this.viewType,
      this.definition.title(args),
      { viewColumn: column, preserveFocus: false },
      this.webviewOptions(),
    );
    return { viewType: this.viewType, key, loaded: this.attach(panel, args, key, this.startEarlyLoad(args)) };
  }

  /** The arguments of this kind's panel that is the active editor, if one is. */
  activeArgs(): PanelArgs[K] | undefined {
    return [...this.open.values()].find(({ panel }) => panel.active)?.args;
  }

  dispose(): void {
    for (const { panel } of [...this.open.values()]) panel.dispose();
    for (const d of this.disposables) d.dispose();
  }

  private restore(panel: vscode.WebviewPanel, state: unknown): void {
    const saved = (state ?? {}) as Partial<PersistedState<unknown>>;
    const args = this.definition.parseArgs(saved.args);
    if (!args) {
      this.log.warn(`Closing a restored ${this.viewType} panel whose saved state names no object.`);
      panel.dispose();
      return;
    }
    const key = this.definition.key(args);
    if (this.open.has(key)) {
      panel.dispose();
      return;
    }
    panel.webview.options = this.webviewOptions();
    // A restored panel loads when its webview asks: VS Code restores a panel's webview only once it is shown.
    void this.attach(panel, args, key, undefined);
  }

  private webviewOptions(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableFindWidget: true,
      localResourceRoots: [
        vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview'),
        vscode.Uri.joinPath(this.extensionUri, 'media'),
      ],
    };
  }

  private html(webview: vscode.Webview, title: string): string {
    const asset = (...segments: string[]) =>
      webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...segments)).toString();
    return renderPanelHtml({
      title,
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: asset('dist', 'webview', `${this.definition.kind}.js`),
      styleUris: [asset('media', 'webview', 'panels.css')],
      codiconUri: asset('dist', 'webview', 'codicon.css'),
    });
  }

  private handler(method: string): (params: unknown, context: RequestContext<K>) => Promise<unknown> {
    return this.definition.handlers[method as keyof PanelHandlers<K>] as (params: unknown, context: RequestContext<K>) => Promise<unknown>;
  }

  private startEarlyLoad(args: PanelArgs[K]): EarlyLoad | undefined {
    if (!this.definition.loadsArgsFirst) return undefined;
    return new EarlyLoad(args, (signal) => this.handler('load')(args, { args, signal }));
  }

  private attach(panel: vscode.WebviewPanel, args: PanelArgs[K], key: string, earlyLoad: EarlyLoad | undefined): Promise<PanelLoad> {
    let settleLoaded: (load: PanelLoad) => void = () => undefined;
    const loaded = new Promise<PanelLoad>((resolve) => (settleLoaded = resolve));
    const entry: OpenPanel<K> = { panel, args, loaded };
    this.open.set(key, entry);

    const latest = new LatestRequests();
    const inFlight = new Map<string, AbortController>();
    let disposed = false;
    const post = (message: HostMessage<PanelArgs[K]>) => {
      if (!disposed) void panel.webview.postMessage(message);
    };
    let initPosted = false;
    const postInit = (preloaded?: Preloaded) => {
      initPosted = true;
      post({ kind: 'init', args: entry.args, ...(preloaded ? { preloaded } : {}) });
    };
    const answeredLoad = (result: unknown) => {
      if (this.definition.loadedTitle && !disposed) panel.title = this.definition.loadedTitle(result as never, entry.args);
      settleLoaded({ viewType: this.viewType, ok: true });
    };

    const subscription = panel.webview.onDidReceiveMessage(async (raw: unknown) => {
      const message = parseWebviewMessage(this.definition.kind, raw);
      if (!message) {
        this.log.warn(`Ignored an unknown message from the ${this.viewType} panel.`);
        return;
      }
      if (message.kind === 'ready') {
        postInit();
        return;
      }
      const { id, method } = message;
      const adopted = method === 'load' ? earlyLoad?.takeOver(message.params) : undefined;
      inFlight.get(method)?.abort();
      const controller = adopted?.controller ?? new AbortController();
      inFlight.set(method, controller);
      latest.begin(method, id);
      try {
        const result = await (adopted?.result ?? this.handler(method)(message.params, { args: entry.args, signal: controller.signal }));
        if (!latest.isCurrent(method, id)) return;
        post({ kind: 'response', id, ok: true, result: result ?? null });
        if (method === 'load') answeredLoad(result);
      } catch (error) {
        if (!latest.isCurrent(method, id)) return;
        const panelError: PanelError = { message: describeError(error) };
        this.log.error(`${this.viewType} ${method} failed: ${panelError.message}`);
        post({ kind: 'response', id, ok: false, error: panelError });
        if (method === 'load') settleLoaded({ viewType: this.viewType, ok: false, error: panelError });
      } finally {
        if (inFlight.get(method) === controller) inFlight.delete(method);
      }
    });

    panel.onDidDispose(() => {
      disposed = true;
      subscription.dispose();
      earlyLoad?.abort();
      for (const controller of inFlight.values()) controller.abort();
      if (this.open.get(key) === entry) this.open.delete(key);
    });
    panel.webview.html = this.html(panel.webview, this.definition.title(args));
    // Posted unasked once the data is there, unless the page asked first: VS Code holds it until the page has
    // loaded, and the page then draws at once. A page that asked first, or missed it, asks for its data itself.
    earlyLoad?.preload()?.then(
      (result) => {
        if (initPosted) return;
        postInit({ method: 'load', params: args, result: result ?? null });
        answeredLoad(result);
      },
      () => undefined,
    );
    return loaded;
  }
}
