import * as vscode from 'vscode';
import { escapeMarkdown } from '../tree/nodeText';
import type { ConnectionState } from '../common/contextKeys';
import type { ConnectionManager } from './connectionManager';

const TOOLTIP_STATE: Readonly<Record<ConnectionState, (where: string) => string>> = {
  idle: (where) => vscode.l10n.t('the {0} starts when a view, command or panel needs it', where),
  connecting: (where) => vscode.l10n.t('connecting to the {0}', where),
  connected: (where) => vscode.l10n.t('connected to the {0}', where),
  offline: (where) => vscode.l10n.t('offline: cannot reach the {0}', where),
  signedOut: (where) => vscode.l10n.t('signed out of the {0}', where),
};

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
        this.item.text = `${icon} ${vscode.l10n.t('XModels')}`;
        this.item.command = 'xmodels.models.focus';
        break;
      case 'connecting':
        this.item.text = `$(sync~spin) ${vscode.l10n.t('XModels: connecting to {0}…', where)}`;
        this.item.command = 'xmodels.connection.showLog';
        break;
      case 'connected':
        this.item.text = `${icon} ${vscode.l10n.t('XModels: {0} · {1}', mode === 'local' ? vscode.l10n.t('local') : where, team?.team_name ?? vscode.l10n.t('default team'))}`;
        this.item.command = 'xmodels.connection.selectTeam';
        break;
      case 'offline':
        this.item.text = `$(debug-disconnect) ${vscode.l10n.t('XModels: offline')}`;
        this.item.command = 'xmodels.connection.retry';
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      case 'signedOut':
        this.item.text = `$(account) ${vscode.l10n.t('XModels: sign in')}`;
        this.item.command = 'xmodels.connection.useHosted';
        break;
    }
    const lines = [
      `**XModels** — ${TOOLTIP_STATE[state](escapeMarkdown(where))}`,
      team ? `\n\n${vscode.l10n.t('Team: {0} ({1})', escapeMarkdown(team.team_name), escapeMarkdown(team.team_id))}` : '',
      username ? `\n\n${vscode.l10n.t('User: {0}', escapeMarkdown(username))}` : '',
      reason ? `\n\n${escapeMarkdown(reason)}` : '',
    ];
    this.item.tooltip = new vscode.MarkdownString(lines.join(''));
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
