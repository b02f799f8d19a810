import type { TreeFeatures, TreeNode } from './nodes';

/**
 * The `contextValue` of a node: its kind followed by one `token;` per fact that a menu depends on, so package.json
 * matches facts with `viewItem =~ /^version;.*refittable;/`.
 */
export function contextValueFor(node: TreeNode, features: TreeFeatures): string {
  const tokens: string[] = [node.kind];
  switch (node.kind) {
    case 'model':
      if (features.deleteModel) tokens.push('deletable');
      if (features.copyModel) tokens.push('copyable');
      break;
    case 'version':
      if (node.version.dataset_id) tokens.push('refittable');
      if (node.version.linked_preprocessor) tokens.push('hasPreprocessor');
      if (features.preprocessors) tokens.push('linkable');
      if (features.predict) tokens.push('predictable');
      if (node.latest) tokens.push('latest');
      if (node.version.edits?.length) tokens.push('edited');
      if (features.edits && node.version.dataset_id) tokens.push('editable');
      break;
    case 'partition':
      if (node.partition.partition === '__dataset__') tokens.push('wholeDataset');
      break;
  }
  return `${tokens.join(';')};`;
}
