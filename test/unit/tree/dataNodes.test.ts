import assert from 'node:assert/strict';
import type { Connection, SourceTable } from '../../../src/contract/connections';
import {
  connectionNodes, dataContextValue, dataNodeKey, qualifiedTableName, schemaNodes, tableNodes,
} from '../../../src/tree/data/dataNodes';
import { connectionDescription, connectionTooltip, schemaDescription, tableDescription } from '../../../src/tree/data/dataNodeText';

const connection = (overrides: Partial<Connection> = {}): Connection => ({ name: 'shop', kind: 'duckdb', tables: 3, origin: 'api', ...overrides });
const tables: SourceTable[] = [
  { schema: 'main', table: 'penguins', rows_estimate: 1344 },
  { schema: 'archive', table: 'orders_2019' },
  { schema: 'main', table: 'customers', rows_estimate: 12345678 },
];

describe('data tree nodes', () => {
  it('lists connections by name, whatever order the service gives', () => {
    const nodes = connectionNodes([connection({ name: 'warehouse', kind: 'postgres' }), connection({ name: 'crm' }), connection()]);
    assert.deepEqual(nodes.map((node) => node.name), ['crm', 'shop', 'warehouse']);
    assert.equal(nodes[0].kind, 'connection');
  });

  it('groups a connection’s tables by schema, both sorted, and names tables schema.table', () => {
    const schemas = schemaNodes('shop', tables);
    assert.deepEqual(schemas.map((schema) => [schema.schema, schema.tables.map((table) => table.table)]), [
      ['archive', ['orders_2019']],
      ['main', ['customers', 'penguins']],
    ]);
    const main = tableNodes(schemas[1]);
    assert.deepEqual(main.map((node) => [node.kind, node.connectionName, qualifiedTableName(node.table)]), [
      ['table', 'shop', 'main.customers'],
      ['table', 'shop', 'main.penguins'],
    ]);
    assert.deepEqual(schemaNodes('empty', []), []);
  });

  it('gives every node an id unique across connections and levels', () => {
    const [archive, main] = schemaNodes('shop', tables);
    const keys = [
      ...connectionNodes([connection(), connection({ name: 'crm' })]),
      archive, main, ...tableNodes(main), ...schemaNodes('crm', tables), ...tableNodes(schemaNodes('crm', tables)[1]),
      { kind: 'error', parentKey: 'connection:shop', message: 'x' } as const,
      { kind: 'empty', parentKey: 'connection:shop', message: 'x' } as const,
    ].map(dataNodeKey);
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(dataNodeKey(tableNodes(main)[1]), 'table:shop/main.penguins');
  });

  it('lets menus tell tables, query-able connections and removable ones apart', () => {
    const [api] = connectionNodes([connection()]);
    const [operator] = connectionNodes([connection({ origin: 'operator' })]);
    assert.equal(dataContextValue(api), 'dataConnection;removable;');
    assert.equal(dataContextValue(operator), 'dataConnection;', 'an operator’s connection cannot be removed from VS Code');
    assert.equal(dataContextValue({ kind: 'unrestored', name: 'old', problem: 'gone' }), 'unrestored;removable;');
    assert.equal(dataContextValue(tableNodes(schemaNodes('shop', tables)[1])[0]), 'dataTable;');
    assert.equal(dataContextValue(schemaNodes('shop', tables)[0]), 'dataSchema;');
  });

  it('describes connections, schemas and tables with what the service knows, never a URL', () => {
    const [duck] = connectionNodes([connection()]);
    const [pg] = connectionNodes([connection({ name: 'warehouse', kind: 'postgres', tables: undefined, origin: 'operator' })]);
    assert.equal(connectionDescription(duck), 'DuckDB · 3 tables');
    assert.equal(connectionDescription(pg), 'PostgreSQL · unreachable');
    assert.equal(connectionDescription(connectionNodes([connection({ tables: 1 })])[0]), 'DuckDB · 1 table');
    assert.match(connectionTooltip(pg), /defined by the service's operator/);
    assert.match(connectionTooltip(duck), /secret storage/);
    const [archive, main] = schemaNodes('shop', tables);
    assert.equal(schemaDescription(archive), '1 table');
    assert.equal(schemaDescription(main), '2 tables');
    const [customers, penguins] = tableNodes(main);
    assert.equal(tableDescription(customers), '~12,345,678 rows');
    assert.equal(tableDescription(penguins), '~1,344 rows');
    assert.equal(tableDescription(tableNodes(archive)[0]), '', 'no estimate, no description');
  });
});
