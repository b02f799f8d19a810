import * as vscode from 'vscode';
import type { ContextKeys } from '../../common/contextKeys';
import { describeError, isUnreachable } from '../../common/errors';
import type { TreeConnection } from '../modelsTreeDataProvider';
import { buildDataTreeItem } from './dataNodeRenderer';
import { connectionNodes, dataNodeKey, schemaNodes, tableNodes, type DataMessageNode, type DataNode, type UnrestoredNode } from './dataNodes';

/**
 * The service's database connections → schemas → tables. Children load lazily and are cached per parent; failures
 * are shown as nodes and never cached.
 */
export class DataTreeDataProvider implements vscode.TreeDataProvider<DataNode>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<DataNode | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  private readonly children = new Map<string, DataNode[]>();
  private readonly parents = new Map<string, DataNode | undefined>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly connection: TreeConnection,
    /** Stored connections the local service did not take back at its start, with why. */
    private readonly unrestored: () => ReadonlyMap<string, string>,
    private readonly contextKeys: ContextKeys,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscription = connection.onDidChangeConnection(() => this.refresh());
  }

  getTreeItem(node: DataNode): vscode.TreeItem {
    return buildDataTreeItem(node);
  }

  getParent(node: DataNode): DataNode | undefined {
    return this.parents.get(dataNodeKey(node));
  }

  async getChildren(node?: DataNode): Promise<DataNode[]> {
    if (!node && this.connection.state !== 'connected') {
      this.connection.start();
      return [];
    }
    const key = node ? dataNodeKey(node) : 'root';
    const cached = this.children.get(key);
    if (cached) return cached;
    try {
      const loaded = await this.load(node);
      for (const child of loaded) this.parents.set(dataNodeKey(child), node);
      this.children.set(key, loaded);
      return loaded;
    } catch (error) {
      if (isUnreachable(error)) {
        this.connection.reportUnreachable(error);
        return [];
      }
      this.log.error(`Loading the Data view's ${key} failed`, error);
      return [this.message('error', key, vscode.l10n.t('Could not load: {0}', describeError(error)), node)];
    }
  }

  /** Reloads everything: after adding or removing a connection, or on the refresh button. */
  refresh(): void {
    this.children.clear();
    this._onDidChangeTreeData.fire(undefined);
  }

  private async load(node: DataNode | undefined): Promise<DataNode[]> {
    if (!node) return this.loadConnections();
    switch (node.kind) {
      case 'connection': {
        const client = await this.connection.getClient();
        const schemas = schemaNodes(node.name, await client.connections.tables(node.name));
        return schemas.length ? schemas : [this.message('empty', dataNodeKey(node), vscode.l10n.t('No tables'), node)];
      }
      case 'schema':
        return tableNodes(node);
      default:
        return [];
    }
  }

  private async loadConnections(): Promise<DataNode[]> {
    if (!this.connection.features.sources) {
      void this.contextKeys.set('xmodels.hasDataConnections', true);
      return [this.message('empty', 'root', vscode.l10n.t('This service does not read databases.'), undefined)];
    }
    const client = await this.connection.getClient();
    const listed = connectionNodes(await client.connections.list());
    const unrestored = [...this.unrestored()]
      .filter(([name]) => !listed.some((node) => node.name === name))
      .map(([name, problem]): UnrestoredNode => ({ kind: 'unrestored', name, problem }));
    const nodes = [...listed, ...unrestored].sort((a, b) => a.name.localeCompare(b.name));
    void this.contextKeys.set('xmodels.hasDataConnections', nodes.length > 0);
    return nodes;
  }

  private message(kind: DataMessageNode['kind'], parentKey: string, text: string, parent: DataNode | undefined): DataMessageNode {
    const node: DataMessageNode = { kind, parentKey, message: text };
    this.parents.set(dataNodeKey(node), parent);
    return node;
  }

  dispose(): void {
    this.subscription.dispose();
    this._onDidChangeTreeData.dispose();
  }
}
