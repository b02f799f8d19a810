import * as vscode from 'vscode';
import { renderMessage } from '../nodeRenderer';
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
      renderMessage(item, { kind: 'error', parentKey: node.name, message: node.problem });
      item.label = node.name;
      item.description = vscode.l10n.t('not connected');
      break;
    case 'error':
    case 'empty':
      renderMessage(item, node);
      break;
  }
  return item;
}
