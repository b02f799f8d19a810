import * as vscode from 'vscode';
import { parseSettings, settingSections, type Settings, type VSCodeHttpSettings } from './settingsSchema';

/** The one place that reads `xmodels.*` settings; every value is validated, invalid ones fall back to defaults. */
export class SettingsAccessor implements vscode.Disposable {
  private readonly _onDidChangeSettings = new vscode.EventEmitter<Settings>();
  readonly onDidChangeSettings = this._onDidChangeSettings.event;
  private cached: Settings | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('xmodels') && !event.affectsConfiguration('http')) return;
      this.cached = undefined;
      this._onDidChangeSettings.fire(this.current);
    });
  }

  get current(): Settings {
    if (!this.cached) {
      const config = vscode.workspace.getConfiguration('xmodels');
      const raw = Object.fromEntries(settingSections.map((section) => [section, config.get(section) ?? {}]));
      const { settings, problems } = parseSettings(raw);
      for (const problem of problems) this.log.warn(`Setting ignored: ${problem}`);
      this.cached = settings;
    }
    return this.cached;
  }

  /** VS Code's own network settings, which the hosted connection follows. */
  get http(): VSCodeHttpSettings {
    const http = vscode.workspace.getConfiguration('http');
    const noProxy = http.get<unknown>('noProxy');
    return {
      proxy: http.get<string>('proxy') ?? '',
      noProxy: Array.isArray(noProxy) ? noProxy.filter((entry): entry is string => typeof entry === 'string') : [],
      proxyStrictSSL: http.get<boolean>('proxyStrictSSL') ?? true,
      proxyAuthorization: http.get<string | null>('proxyAuthorization') ?? null,
      systemCertificates: http.get<boolean>('systemCertificates') ?? true,
    };
  }

  async setConnectionMode(mode: Settings['connection']['mode']): Promise<void> {
    await vscode.workspace.getConfiguration('xmodels').update('connection.mode', mode, vscode.ConfigurationTarget.Global);
    this.cached = undefined;
  }

  async setHostedBaseUrl(url: string): Promise<void> {
    await vscode.workspace.getConfiguration('xmodels').update('hosted.baseUrl', url, vscode.ConfigurationTarget.Global);
    this.cached = undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this._onDidChangeSettings.dispose();
  }
}
