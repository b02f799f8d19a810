import * as vscode from 'vscode';
import { contextValueFor } from './contextValue';
import { nodeKey, type MessageNode, type TreeFeatures, type TreeNode } from './nodes';
import {
  messageTooltip,
  modelDescription,
  modelTooltip,
  partitionDescription,
  partitionLabel,
  partitionTooltip,
  versionDescription,
  versionLabel,
  versionTooltip,
} from './nodeText';

/** Scheme of the `resourceUri` given to versions, so the preprocessor badge can be drawn as a file decoration. */
export const VERSION_URI_SCHEME = 'xmodels-version';

const { Collapsed, None } = vscode.TreeItemCollapsibleState;

/** Renders one node; no I/O, so it is cheap for thousands of nodes. */
export function buildTreeItem(node: TreeNode, features: TreeFeatures): vscode.TreeItem {
  const item = new vscode.TreeItem('', None);
  item.id = nodeKey(node);
  item.contextValue = contextValueFor(node, features);
  switch (node.kind) {
    case 'model':
      item.label = node.model.model_name;
      item.description = modelDescription(node.model);
      item.tooltip = new vscode.MarkdownString(modelTooltip(node));
      item.iconPath = new vscode.ThemeIcon(node.model.model_type === 'regression' ? 'graph-line' : 'symbol-boolean');
      item.collapsibleState = Collapsed;
      break;
    case 'version':
      item.label = versionLabel(node.version);
      item.description = versionDescription(node.version);
      item.tooltip = new vscode.MarkdownString(versionTooltip(node));
      item.iconPath = new vscode.ThemeIcon(node.version.source === 'refit' ? 'wrench' : node.version.source === 'autotrain' ? 'sparkle' : 'versions');
      item.collapsibleState = Collapsed;
      if (node.version.linked_preprocessor) {
        item.resourceUri = vscode.Uri.from({ scheme: VERSION_URI_SCHEME, path: `/${node.versionId}`, query: 'preprocessor' });
      }
      break;
    case 'partition':
      item.label = partitionLabel(node.partition, node.model.partition_on);
      item.description = partitionDescription(node.partition);
      item.tooltip = new vscode.MarkdownString(partitionTooltip(node));
      item.iconPath = new vscode.ThemeIcon(node.partition.partition === '__dataset__' ? 'database' : 'split-horizontal');
      item.command = { title: vscode.l10n.t('Open Evaluation'), command: 'xmodels.panels.evaluation', arguments: [node] };
      break;
    case 'loadMore':
      item.label = vscode.l10n.t('Load more…');
      item.description = vscode.l10n.t('{0} of {1} shown', node.shown, node.total);
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { title: vscode.l10n.t('Load More Models'), command: 'xmodels.models.loadMore' };
      break;
    case 'error':
    case 'empty':
      renderMessage(item, node);
      break;
    case 'busy':
      item.label = node.message;
      item.iconPath = new vscode.ThemeIcon('loading~spin');
      break;
  }
  return item;
}

/** A placeholder in place of children, in any of the views: a failure (click for the log) or an empty list. */
export function renderMessage(item: vscode.TreeItem, node: MessageNode): void {
  item.label = node.message;
  if (node.kind === 'empty') {
    item.iconPath = new vscode.ThemeIcon('info');
    return;
  }
  item.tooltip = new vscode.MarkdownString(messageTooltip(node));
  item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('notificationsErrorIcon.foreground'));
  item.command = { title: vscode.l10n.t('Show Log'), command: 'xmodels.connection.showLog' };
}

/** Draws a "P" badge on versions with a linked preprocessor. */
export class PreprocessorBadgeProvider implements vscode.FileDecorationProvider {
  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== VERSION_URI_SCHEME || uri.query !== 'preprocessor') return undefined;
    return new vscode.FileDecoration('P', 'A preprocessor is linked to this version', new vscode.ThemeColor('charts.purple'));
  }
}
