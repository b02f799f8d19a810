import type { ModelInfo, ModelVersion, Partition } from '../contract';

/** Tree nodes, a discriminated union on `kind`; the ids let command handlers work from a node or a plain object. */
export interface ModelNode {
  kind: 'model';
  modelId: string;
  model: ModelInfo;
}

export interface VersionNode {
  kind: 'version';
  modelId: string;
  versionId: string;
  version: ModelVersion;
  model: ModelInfo;
  latest: boolean;
}

export interface PartitionNode {
  kind: 'partition';
  modelId: string;
  versionId: string;
  partitionId: string;
  /** The parent version's number, so panels opened from the partition name "model vN". */
  versionNumber: number;
  partition: Partition;
  model: ModelInfo;
}

export interface LoadMoreNode {
  kind: 'loadMore';
  shown: number;
  total: number;
}

/** A placeholder in place of children: a failure to load, an empty list, or work in progress. */
export interface MessageNode {
  kind: 'error' | 'empty' | 'busy';
  /** The id of the node whose children this replaces (`root` at the top). */
  parentKey: string;
  message: string;
}

export type TreeNode = ModelNode | VersionNode | PartitionNode | LoadMoreNode | MessageNode;

/** The subset of the service's optional features that the tree's menus depend on. */
export interface TreeFeatures {
  deleteModel: boolean;
  predict: boolean;
  preprocessors: boolean;
  /** Database connections and datasets whose rows stay in them (the Data view). */
  sources: boolean;
  /** A model's versions can be read as payloads, so the model can be copied to another service. */
  copyModel: boolean;
  /** Hand edits of a version's steps can be previewed and saved. */
  edits: boolean;
}

export function nodeKey(node: TreeNode): string {
  switch (node.kind) {
    case 'model':
      return `model:${node.modelId}`;
    case 'version':
      return `version:${node.versionId}`;
    case 'partition':
      return `partition:${node.partitionId}`;
    case 'loadMore':
      return 'loadMore';
    default:
      return `${node.kind}:${node.parentKey}`;
  }
}
