import * as vscode from 'vscode';
import { escapeMarkdown } from '../tree/nodeText';
import type { ConnectionManager } from './connectionManager';

/** Shows where XModels is connected and which team it uses; a click switches team, retries or signs in. */
export class ConnectionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('xmodels.connection', vscode.StatusBarAlignment.Left, 50);
  private readonly subscription: vscode.Disposable;

  constructor(private readonly connection: ConnectionManager) {
    this.item.name = 'XModels connection';
    this.subscription = connection.onDidChangeConnection(() => this.update());
    this.update();
    this.item.show();
  }

  private update(): void {
    const { state, mode, where, team, username, reason } = this.connection.snapshot;
    const icon = mode === 'local' ? '$(server-process)' : '$(cloud)';
    this.item.backgroundColor = undefined;
    switch (state) {
      case 'idle':
        this.item.text = `${icon} XModels`;
        this.item.command = 'xmodels.models.focus';
        break;
      case 'connecting':
        this.item.text = `$(sync~spin) XModels: connecting to ${where}…`;
        this.item.command = 'xmodels.connection.showLog';
        break;
      case 'connected':
        this.item.text = `${icon} XModels: ${mode === 'local' ? 'local' : where} · ${team?.team_name ?? 'default team'}`;
        this.item.command = 'xmodels.connection.selectTeam';
        break;
      case 'offline':
        this.item.text = '$(debug-disconnect) XModels: offline';
        this.item.command = 'xmodels.connection.retry';
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      case 'signedOut':
        this.item.text = '$(account) XModels: sign in';
        this.item.command = 'xmodels.connection.useHosted';
        break;
    }
    const lines = [
      state === 'idle'
        ? `**XModels** — the ${escapeMarkdown(where)} starts when a view, command or panel needs it`
        : `**XModels** — ${state === 'connected' ? 'connected to' : state} the ${escapeMarkdown(where)}`,
      team ? `\n\nTeam: ${escapeMarkdown(team.team_name)} (${escapeMarkdown(team.team_id)})` : '',
      username ? `\n\nUser: ${escapeMarkdown(username)}` : '',
      reason ? `\n\n${escapeMarkdown(reason)}` : '',
    ];
    this.item.tooltip = new vscode.MarkdownString(lines.join(''));
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
