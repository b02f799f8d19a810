import * as vscode from 'vscode';
import { parseSettings, settingSections, type Settings } from './settingsSchema';

/** The one place that reads `xmodels.*` settings; every value is validated, invalid ones fall back to defaults. */
export class SettingsAccessor implements vscode.Disposable {
  private readonly _onDidChangeSettings = new vscode.EventEmitter<Settings>();
  readonly onDidChangeSettings = this._onDidChangeSettings.event;
  private cached: Settings | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('xmodels')) return;
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

  /** VS Code's own proxy setting, which the hosted connection falls back to. */
  get httpProxy(): string {
    return vscode.workspace.getConfiguration('http').get<string>('proxy') ?? '';
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
