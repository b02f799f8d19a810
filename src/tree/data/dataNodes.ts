import type { Connection, SourceTable } from '../../contract/connections';

/** The Data view's nodes, a discriminated union on `kind`: connections → schemas → tables. */
export interface ConnectionNode {
  kind: 'connection';
  name: string;
  connection: Connection;
}

export interface SchemaNode {
  kind: 'schema';
  connectionName: string;
  schema: string;
  tables: SourceTable[];
}

export interface TableNode {
  kind: 'table';
  connectionName: string;
  table: SourceTable;
}

/** A stored connection the local service did not take back after its start (its database moved, say). */
export interface UnrestoredNode {
  kind: 'unrestored';
  name: string;
  problem: string;
}

/** A placeholder in place of children: a failure to load or an empty list. */
export interface DataMessageNode {
  kind: 'error' | 'empty';
  parentKey: string;
  message: string;
}

export type DataNode = ConnectionNode | SchemaNode | TableNode | UnrestoredNode | DataMessageNode;

/** `schema.table`, as dataset sources name a table. */
export function qualifiedTableName(table: Pick<SourceTable, 'schema' | 'table'>): string {
  return `${table.schema}.${table.table}`;
}

export function dataNodeKey(node: DataNode): string {
  switch (node.kind) {
    case 'connection':
    case 'unrestored':
      return `connection:${node.name}`;
    case 'schema':
      return `schema:${node.connectionName}/${node.schema}`;
    case 'table':
      return `table:${node.connectionName}/${qualifiedTableName(node.table)}`;
    default:
      return `${node.kind}:${node.parentKey}`;
  }
}

/** Connections sorted by name, so the tree keeps its order whatever order the service lists them in. */
export function connectionNodes(connections: readonly Connection[]): ConnectionNode[] {
  return [...connections].sort((a, b) => a.name.localeCompare(b.name)).map((connection) => ({ kind: 'connection', name: connection.name, connection }));
}

/** A connection's tables grouped by schema, schemas and tables sorted by name. */
export function schemaNodes(connectionName: string, tables: readonly SourceTable[]): SchemaNode[] {
  const bySchema = new Map<string, SourceTable[]>();
  for (const table of tables) bySchema.set(table.schema, [...(bySchema.get(table.schema) ?? []), table]);
  return [...bySchema.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([schema, inSchema]) => ({ kind: 'schema', connectionName, schema, tables: inSchema.sort((a, b) => a.table.localeCompare(b.table)) }));
}

export function tableNodes(schema: SchemaNode): TableNode[] {
  return schema.tables.map((table) => ({ kind: 'table', connectionName: schema.connectionName, table }));
}

/**
 * The `contextValue` of a node: its kind, then one `token;` per fact a menu depends on (`removable`: the extension
 * added it, so it can take it away; an operator's connection cannot be removed).
 */
export function dataContextValue(node: DataNode): string {
  const tokens: string[] = [node.kind === 'connection' ? 'dataConnection' : node.kind === 'table' ? 'dataTable' : node.kind === 'schema' ? 'dataSchema' : node.kind];
  if (node.kind === 'connection' && node.connection.origin === 'api') tokens.push('removable');
  if (node.kind === 'unrestored') tokens.push('removable');
  return `${tokens.join(';')};`;
}
