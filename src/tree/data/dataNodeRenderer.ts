import * as vscode from 'vscode';
import { messageTooltip } from '../nodeText';
import { dataContextValue, dataNodeKey, type DataNode } from './dataNodes';
import { connectionDescription, connectionTooltip, schemaDescription, tableDescription } from './dataNodeText';

const { Collapsed, None } = vscode.TreeItemCollapsibleState;

/** Renders one node of the Data view; no I/O. */
export function buildDataTreeItem(node: DataNode): vscode.TreeItem {
  const item = new vscode.TreeItem('', None);
  item.id = dataNodeKey(node);
  item.contextValue = dataContextValue(node);
  switch (node.kind) {
    case 'connection':
      item.label = node.name;
      item.description = connectionDescription(node);
      item.tooltip = new vscode.MarkdownString(connectionTooltip(node));
      item.iconPath = new vscode.ThemeIcon('database');
      item.collapsibleState = Collapsed;
      break;
    case 'schema':
      item.label = node.schema;
      item.description = schemaDescription(node);
      item.iconPath = new vscode.ThemeIcon('symbol-namespace');
      item.collapsibleState = Collapsed;
      break;
    case 'table':
      item.label = node.table.table;
      item.description = tableDescription(node);
      item.iconPath = new vscode.ThemeIcon('table');
      break;
    case 'unrestored':
      item.label = node.name;
      item.description = vscode.l10n.t('not connected');
      item.tooltip = new vscode.MarkdownString(messageTooltip({ kind: 'error', parentKey: node.name, message: node.problem }));
      item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
      item.command = { title: vscode.l10n.t('Show Log'), command: 'xmodels.connection.showLog' };
      break;
    case 'error':
      item.label = node.message;
      item.tooltip = new vscode.MarkdownString(messageTooltip(node));
      item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('notificationsErrorIcon.foreground'));
      item.command = { title: vscode.l10n.t('Show Log'), command: 'xmodels.connection.showLog' };
      break;
    case 'empty':
      item.label = node.message;
      item.iconPath = new vscode.ThemeIcon('info');
      break;
  }
  return item;
}
