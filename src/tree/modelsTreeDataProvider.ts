import * as vscode from 'vscode';
import type { XModelsClient } from '../client';
import type { ModelInfo } from '../contract';
import type { ConnectionState, ContextKeys } from '../common/contextKeys';
import { describeError, isUnreachable } from '../common/errors';
import { buildTreeItem } from './nodeRenderer';
import { sortPartitions, sortVersions } from './nodeText';
import { nodeKey, type MessageNode, type ModelNode, type TreeFeatures, type TreeNode, type VersionNode } from './nodes';

/** What the tree needs from the connection. */
export interface TreeConnection {
  readonly state: ConnectionState;
  readonly features: TreeFeatures;
  readonly onDidChangeConnection: vscode.Event<void>;
  getClient(): Promise<XModelsClient>;
  /** Connects if nothing has yet (showing the view is the first need for data). */
  start(): void;
  /** Called when a load fails because the service is unreachable: the connection goes offline once, quietly. */
  reportUnreachable(error: unknown): void;
}

/**
 * Team models -> versions (newest first) -> partitions. Children load lazily and are cached per parent; failures are
 * shown as nodes and never cached; nodes keep their identity across loads so `reveal` and `getParent` work.
 */
export class ModelsTreeDataProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  private models: ModelInfo[] | undefined;
  private shown: number;
  private readonly children = new Map<string, TreeNode[]>();
  private readonly nodes = new Map<string, TreeNode>();
  private readonly parents = new Map<string, TreeNode | undefined>();
  private readonly busy = new Map<number, MessageNode>();
  private busyIds = 0;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly connection: TreeConnection,
    private readonly contextKeys: ContextKeys,
    private readonly log: vscode.LogOutputChannel,
    private readonly pageSize: () => number,
  ) {
    this.shown = pageSize();
    this.subscription = connection.onDidChangeConnection(() => this.refresh());
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return buildTreeItem(node, this.connection.features);
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return this.parents.get(nodeKey(node));
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) return this.rootChildren();
    const key = nodeKey(node);
    const cached = this.children.get(key);
    if (cached) return cached;
    if (node.kind !== 'model' && node.kind !== 'version') return [];
    try {
      const loaded = node.kind === 'model' ? await this.loadVersions(node) : await this.loadPartitions(node);
      const result = loaded.length ? loaded : [this.message('empty', key, node.kind === 'model' ? vscode.l10n.t('No versions') : vscode.l10n.t('No partitions'), node)];
      this.children.set(key, result);
      return result;
    } catch (error) {
      if (isUnreachable(error)) this.connection.reportUnreachable(error);
      return [this.failure(error, key, node)];
    }
  }

  /** Reloads everything (after a change or on the refresh button), back to the first page. */
  refresh(): void {
    this.models = undefined;
    this.shown = this.pageSize();
    this.children.clear();
    this._onDidChangeTreeData.fire(undefined);
  }

  /** Reloads one model's versions (after a refit or a new version). */
  refreshModel(modelId: string): void {
    const model = this.nodes.get(`model:${modelId}`);
    for (const key of [...this.children.keys()]) {
      if (key === `model:${modelId}` || (this.nodes.get(key) as VersionNode | undefined)?.modelId === modelId) this.children.delete(key);
    }
    this.models = undefined;
    this._onDidChangeTreeData.fire(model);
  }

  loadMore(): void {
    this.shown += this.pageSize();
    this._onDidChangeTreeData.fire(undefined);
  }

  /** Shows a spinner node at the top of the tree while `work` runs. */
  async whileBusy<T>(message: string, work: () => Promise<T>): Promise<T> {
    const id = ++this.busyIds;
    this.busy.set(id, { kind: 'busy', parentKey: `root-${id}`, message });
    this._onDidChangeTreeData.fire(undefined);
    try {
      return await work();
    } finally {
      this.busy.delete(id);
      this._onDidChangeTreeData.fire(undefined);
    }
  }

  /** Finds the node of a model (loading the list and paging as far as needed), or undefined when it is not there. */
  async findModel(modelId: string): Promise<ModelNode | undefined> {
    await this.rootChildren();
    const index = this.models?.findIndex((model) => model.model_id === modelId) ?? -1;
    if (index < 0) return undefined;
    if (index >= this.shown) {
      this.shown = Math.ceil((index + 1) / this.pageSize()) * this.pageSize();
      this._onDidChangeTreeData.fire(undefined);
      await this.rootChildren();
    }
    return this.nodes.get(`model:${modelId}`) as ModelNode | undefined;
  }

  async findVersion(modelId: string, versionId: string): Promise<VersionNode | undefined> {
    const model = await this.findModel(modelId);
    if (!model) return undefined;
    const versions = await this.getChildren(model);
    return versions.find((node): node is VersionNode => node.kind === 'version' && node.versionId === versionId);
  }

  private async rootChildren(): Promise<TreeNode[]> {
    const busy = [...this.busy.values()];
    if (this.connection.state !== 'connected') {
      this.connection.start();
      return busy;
    }
    if (!this.models) {
      try {
        const client = await this.connection.getClient();
        const models = await client.models.listTeamModels();
        this.models = models.filter((model) => !model.archived).sort((a, b) => b.created.localeCompare(a.created));
      } catch (error) {
        if (isUnreachable(error)) {
          this.connection.reportUnreachable(error);
          return busy;
        }
        return [...busy, this.failure(error, 'root', undefined)];
      }
    }
    void this.contextKeys.set('xmodels.hasModels', this.models.length > 0);
    const page = this.models.slice(0, this.shown).map((model) => this.remember<ModelNode>({ kind: 'model', modelId: model.model_id, model }, undefined));
    const more = this.models.length > this.shown ? [{ kind: 'loadMore', shown: this.shown, total: this.models.length } as const] : [];
    return [...busy, ...page, ...more];
  }

  private async loadVersions(node: ModelNode): Promise<TreeNode[]> {
    const client = await this.connection.getClient();
    const versions = sortVersions(await client.models.listModelVersions(node.modelId));
    return versions.map((version, index) =>
      this.remember<VersionNode>(
        { kind: 'version', modelId: node.modelId, versionId: version.version_id, version, model: node.model, latest: index === 0 },
        node,
      ),
    );
  }

  private async loadPartitions(node: VersionNode): Promise<TreeNode[]> {
    const client = await this.connection.getClient();
    const { partitions } = await client.models.listModelVersionPartitions(node.versionId);
    return sortPartitions(partitions).map((partition) =>
      this.remember(
        { kind: 'partition', modelId: node.modelId, versionId: node.versionId, partitionId: partition.partition_id, versionNumber: node.version.version_number, partition, model: node.model },
        node,
      ),
    );
  }

  /** Keeps one object per id (updating its data), so VS Code sees the same element after a reload. */
  private remember<T extends ModelNode | VersionNode | TreeNode>(fresh: T, parent: TreeNode | undefined): T {
    const key = nodeKey(fresh);
    const existing = this.nodes.get(key);
    const node = existing ? Object.assign(existing, fresh) : fresh;
    this.nodes.set(key, node);
    this.parents.set(key, parent);
    return node as T;
  }

  private message(kind: MessageNode['kind'], parentKey: string, text: string, parent: TreeNode | undefined): MessageNode {
    const node: MessageNode = { kind, parentKey, message: text };
    this.parents.set(nodeKey(node), parent);
    return node;
  }

  private failure(error: unknown, parentKey: string, parent: TreeNode | undefined): MessageNode {
    this.log.error(`Loading ${parentKey} failed`, error);
    return this.message('error', parentKey, vscode.l10n.t('Could not load: {0}', describeError(error)), parent);
  }

  dispose(): void {
    this.subscription.dispose();
    this._onDidChangeTreeData.dispose();
  }
}
