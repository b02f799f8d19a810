import * as vscode from 'vscode';
import type { QuickInputs } from '../common/multiStepInput';
import type { ConnectionManager } from '../connection/connectionManager';
import type { HostedAuthProvider } from '../connection/hostedAuthProvider';

/** Switch between local and hosted, retry, pick a team, show the log. */
export class ConnectionCommands {
  constructor(
    private readonly connection: ConnectionManager,
    private readonly auth: HostedAuthProvider,
    private readonly inputs: QuickInputs,
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

  /** Resolves to the chosen team id. */
  async selectTeam(): Promise<string> {
    const client = await this.connection.getClient();
    const teams = await client.teams();
    const current = this.connection.snapshot.team?.team_id;
    const items = teams.map((team) => ({ team, label: team.team_name, description: team.team_id === current ? 'current' : team.team_id }));
    const picked = await this.inputs.pick({ title: vscode.l10n.t('XModels team'), placeholder: vscode.l10n.t('Team whose models the explorer shows and new models go to'), items, selected: items.filter((item) => item.team.team_id === current) });
    await this.connection.selectTeam(picked.team.team_id);
    return picked.team.team_id;
  }

  showLog(): void {
    this.log.show();
  }

  /** After signing in with a key that has several teams, let the user choose one. */
  private async offerTeamChoice(): Promise<void> {
    if (this.connection.state === 'connected' && this.connection.teams.length > 1) await this.selectTeam();
  }
}
