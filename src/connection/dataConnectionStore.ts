import type * as vscode from 'vscode';
import type { XModelsClient } from '../client';
import { dataConnectionSecrets } from '../common/dataConnectionUrl';
import { describeError } from '../common/errors';
import { l10n } from '../l10n/l10n';

const NAMES_KEY = 'xmodels.dataConnections';
const secretKey = (name: string) => `xmodels.dataConnection.${name}`;

export interface DataConnectionStoreDependencies {
  secrets: vscode.SecretStorage;
  /** Holds the connections' names only; their URLs, which may carry a password, live in `secrets`. */
  globalState: vscode.Memento;
  log: vscode.LogOutputChannel;
  /** Called with every password in use, so the log can mask it. */
  rememberSecret(secret: string): void;
}

/**
 * The database connections added in VS Code. The local service keeps them in memory only, so each of its starts
 * gets them all again (`restoreTo`); what it refused is kept with the reason, for the Data view.
 */
export class DataConnectionStore {
  private readonly problems = new Map<string, string>();

  constructor(private readonly deps: DataConnectionStoreDependencies) {}

  names(): string[] {
    return this.deps.globalState.get<string[]>(NAMES_KEY, []);
  }

  /** Stored connections the service did not take back at its last start, with what it said. */
  unrestored(): ReadonlyMap<string, string> {
    return this.problems;
  }

  async save(name: string, url: string): Promise<void> {
    this.remember(url);
    await this.deps.secrets.store(secretKey(name), url);
    if (!this.names().includes(name)) await this.deps.globalState.update(NAMES_KEY, [...this.names(), name].sort());
    this.problems.delete(name);
  }

  async delete(name: string): Promise<void> {
    await this.deps.secrets.delete(secretKey(name));
    await this.deps.globalState.update(NAMES_KEY, this.names().filter((stored) => stored !== name));
    this.problems.delete(name);
  }

  /**
   * Sends every stored connection to a freshly started local service, all at once (the service tests each one, so an
   * unreachable database holds up the start no longer than its own test); one that fails is logged and kept.
   */
  async restoreTo(client: Pick<XModelsClient, 'connections'>): Promise<void> {
    this.problems.clear();
    await Promise.all(this.names().map((name) => this.restore(client, name)));
  }

  private async restore(client: Pick<XModelsClient, 'connections'>, name: string): Promise<void> {
    const url = await this.deps.secrets.get(secretKey(name));
    if (url === undefined) {
      this.problems.set(name, l10n.t('Its URL is no longer in the secret storage: remove the connection and add it again.'));
      return;
    }
    this.remember(url);
    try {
      await client.connections.add({ name, url });
      this.deps.log.info(`Data connection ${name} restored`);
    } catch (error) {
      this.problems.set(name, describeError(error));
      this.deps.log.warn(`Data connection ${name} could not be restored: ${describeError(error)}`);
    }
  }

  private remember(url: string): void {
    for (const secret of dataConnectionSecrets(url)) this.deps.rememberSecret(secret);
  }
}
