import * as vscode from 'vscode';
import type { ConnectionManager } from '../connection/connectionManager';
import type { HostedAuthProvider } from '../connection/hostedAuthProvider';
import { answered, type Prompter } from '../prompts/prompter';

/** Switch between local and hosted, retry, pick a team, show the log. */
export class ConnectionCommands {
  constructor(
    private readonly connection: ConnectionManager,
    private readonly auth: HostedAuthProvider,
    private readonly prompter: Prompter,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Asks for the address and a key when none is stored for the configured address, then connects. */
  async useHosted(): Promise<string> {
    if (!(await this.auth.currentSession())) await this.auth.createSession();
    await this.connection.useMode('hosted');
    await this.offerTeamChoice();
    return this.connection.state;
  }

  async useLocal(): Promise<string> {
    await this.connection.useMode('local');
    return this.connection.state;
  }

  async retry(): Promise<string> {
    await this.connection.retry();
    return this.connection.state;
  }

  /** Resolves to the chosen team id (undefined when the picker was dismissed). */
  async selectTeam(): Promise<string | undefined> {
    const client = await this.connection.getClient();
    const teams = await client.teams();
    const current = this.connection.snapshot.team?.team_id;
    const items = teams.map((team) => ({ value: team.team_id, label: team.team_name, description: team.team_id === current ? vscode.l10n.t('current') : team.team_id, picked: team.team_id === current }));
    const picked = await this.prompter.pickOne({ id: 'team', position: { title: vscode.l10n.t('XModels team'), canGoBack: false }, placeholder: vscode.l10n.t('Team whose models the explorer shows and new models go to'), items });
    if (!answered(picked)) return undefined;
    await this.connection.selectTeam(picked);
    return picked;
  }

  showLog(): void {
    this.log.show();
  }

  /** After signing in with a key that has several teams, let the user choose one. */
  private async offerTeamChoice(): Promise<void> {
    if (this.connection.state === 'connected' && this.connection.teams.length > 1) await this.selectTeam();
  }
}
