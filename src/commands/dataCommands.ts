import * as vscode from 'vscode';
import type { Connection, Dataset, RegisterConnectionDatasetRequest } from '../contract';
import { dataConnectionSecrets } from '../common/dataConnectionUrl';
import { describeError, isApiError, UserFacingError } from '../common/errors';
import { maskSecrets } from '../common/mask';
import type { XModelsServices } from '../common/services';
import type { DataConnectionStore } from '../connection/dataConnectionStore';
import { askDataConnection } from '../flows/data/addConnectionFlow';
import { askQuery } from '../flows/data/queryFlow';
import { tableDatasetRequest } from '../flows/data/sourceTraining';
import { qualifiedTableName, type ConnectionNode, type TableNode, type UnrestoredNode } from '../tree/data/dataNodes';
import { underProgress } from './progress';
import type { TrainedModel } from './autotrain/trainingProgress';
import type { TrainCommands } from './trainCommands';

export interface DataCommandsDependencies {
  services: XModelsServices;
  store: DataConnectionStore;
  train: TrainCommands;
  /** Whether the extension talks to the hosted service, which takes connections from its operator only. */
  isHosted(): boolean;
  refreshData(): void;
}

function requireNode<K extends 'connection' | 'table'>(arg: unknown, kind: K): K extends 'table' ? TableNode : ConnectionNode {
  const node = arg as { kind?: unknown } | undefined;
  if (node?.kind !== kind) throw new UserFacingError(vscode.l10n.t('Run this command from a connection or a table of the Data view.'));
  return node as K extends 'table' ? TableNode : ConnectionNode;
}

/** The Data view's commands: add and remove database connections, and train, autotrain or summarize a table or query. */
export class DataCommands {
  constructor(private readonly deps: DataCommandsDependencies) {}

  /** `xmodels.data.addConnection`: asks a name and a URL, has the service test it, then keeps the URL as a secret. */
  async addConnection(): Promise<Connection | undefined> {
    const { services, store } = this.deps;
    if (this.deps.isHosted()) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t("The hosted service takes its data connections from its operator's configuration; the Data view lists them. Ask its operator to add one, or use the local service to connect to your own databases."),
      );
      return undefined;
    }
    const client = await services.getClient();
    const listed = await client.connections.list();
    const added = await askDataConnection(services.prompter, [...new Set([...store.names(), ...listed.map((connection) => connection.name)])]);
    if (!added) return undefined;
    const secrets = dataConnectionSecrets(added.url);
    const connection = await underProgress(vscode.l10n.t('Testing the connection {0}', added.name), (signal) => client.connections.add(added, { signal })).catch(
      (error: unknown) => {
        if (!isApiError(error)) throw error;
        throw new UserFacingError(vscode.l10n.t('The service could not connect to {0}: {1}', added.name, maskSecrets(describeError(error), secrets)));
      },
    );
    await store.save(added.name, added.url);
    services.log.info(`Data connection ${connection.name} (${connection.kind}) added`);
    this.deps.refreshData();
    void vscode.window.showInformationMessage(vscode.l10n.t('Connected to {0}: {1} tables.', connection.name, connection.tables ?? 0));
    return connection;
  }

  /** `xmodels.data.removeConnection`: after a confirmation, deletes the stored URL and the service's connection. */
  async removeConnection(arg?: unknown): Promise<boolean> {
    const node = arg as ConnectionNode | UnrestoredNode | undefined;
    if (node?.kind !== 'connection' && node?.kind !== 'unrestored') throw new UserFacingError(vscode.l10n.t('Run this command from a connection or a table of the Data view.'));
    const confirmed = await this.deps.services.prompter.confirm({
      id: 'removeConnection',
      message: vscode.l10n.t('Remove the data connection {0}?', node.name),
      detail: vscode.l10n.t('Its URL is deleted from the secret storage and the service forgets it. Models trained from its tables stay.'),
      action: vscode.l10n.t('Remove'),
    });
    if (!confirmed) return false;
    await this.deps.store.delete(node.name);
    const client = await this.deps.services.getClient();
    await client.connections.remove(node.name).catch((error: unknown) => {
      if (!isApiError(error) || error.status !== 404) throw error;
    });
    this.deps.services.log.info(`Data connection ${node.name} removed`);
    this.deps.refreshData();
    return true;
  }

  /** `xmodels.data.trainTable`: the train flow on a table, whose rows stay in the database. */
  async trainTable(arg?: unknown): Promise<TrainedModel | undefined> {
    return this.deps.train.trainDataset(await this.registerTable(requireNode(arg, 'table')));
  }

  async autotrainTable(arg?: unknown): Promise<unknown> {
    return vscode.commands.executeCommand('xmodels.autotrain.start', await this.registerTable(requireNode(arg, 'table')));
  }

  async summarizeTable(arg?: unknown): Promise<unknown> {
    return vscode.commands.executeCommand('xmodels.autotrain.summarize', await this.registerTable(requireNode(arg, 'table')));
  }

  /** `xmodels.data.trainQuery`: asks for a SELECT on the connection and trains on its rows. */
  async trainQuery(arg?: unknown): Promise<TrainedModel | undefined> {
    const { name } = requireNode(arg, 'connection');
    const query = await askQuery(this.deps.services.prompter, name);
    if (query === undefined) return undefined;
    return this.deps.train.trainDataset(await this.register({ name: `${name} query`, source: { connection: name, query } }, vscode.l10n.t('the query')));
  }

  /** Registers the table as a data set (its unusable columns left out), so the flows that take a data set can run on it. */
  private async registerTable(node: TableNode): Promise<Dataset> {
    const client = await this.deps.services.getClient();
    const columns = await client.connections.columns(node.connectionName, node.table);
    const request = tableDatasetRequest(node.connectionName, node.table, columns);
    const left = columns.filter((column) => !column.usable).map((column) => `${column.name} (${column.type})`);
    if (left.length) this.deps.services.log.info(`${qualifiedTableName(node.table)}: leaving out ${left.join(', ')}, which no model can use`);
    return this.register(request, qualifiedTableName(node.table));
  }

  private async register(request: RegisterConnectionDatasetRequest, what: string): Promise<Dataset> {
    const client = await this.deps.services.getClient();
    const dataset = await underProgress(vscode.l10n.t('Counting the rows of {0}', what), (signal) => client.datasets.register(request, { signal }));
    this.deps.services.log.info(`Data set ${dataset.name} (${dataset.dataset_id}) registered from ${request.source.connection}: ${dataset.rows} rows`);
    return dataset;
  }
}
