import { z } from 'zod';
import { AddConnectionRequestSchema, ConnectionSchema, SourceColumnSchema, SourceTableSchema, type Connection } from '../../contract';
import type { ServiceContext } from '../http/context';
import { ApiError, invalid, notFound } from '../base/errors';
import { readJson, sendJson } from '../http/body';
import type { App } from '../http/types';
import { requireConnection } from '../datasets/sourceDataset';
import { connectionLabel, sourceApiError } from '../sources/apiErrors';
import type { NamedConnection } from '../sources/connections';
import { parseConnectionUrl } from '../sources/connectionUrl';
import { qualifiedName } from '../sources/dialect';

const operatorOnly = () =>
  new ApiError(
    403,
    'FORBIDDEN',
    'This service takes its connections from its operator only (it was started with --allow-remote or --database).',
    'Define the connection with serve --connection NAME=URL, or start the service with --allow-connection-api.',
  );

async function listed(ctx: ServiceContext, connection: NamedConnection): Promise<Connection> {
  const tables = await ctx.connections.tableCount(connection);
  return { name: connection.name, kind: connection.kind, ...(tables === undefined ? {} : { tables }), origin: connection.origin };
}

/** Named database connections: listed for every key; added and removed by the local service's own caller. */
export function mountConnectionRoutes(app: App, ctx: ServiceContext): void {
  app.get('/v1/connections', async (c) =>
    sendJson(c, z.array(ConnectionSchema), await Promise.all(ctx.connections.list().map((connection) => listed(ctx, connection)))),
  );

  app.post('/v1/connections', async (c) => {
    if (!ctx.connectionApi) throw operatorOnly();
    const body = await readJson(c, AddConnectionRequestSchema);
    let target;
    try {
      target = parseConnectionUrl(body.url);
    } catch (error) {
      throw invalid('url', (error as Error).message);
    }
    const added = await ctx.connections.add(body.name, target).catch((error: unknown) => {
      throw sourceApiError(error, 'url', connectionLabel(body.name));
    });
    if (added === 'operator') throw invalid('name', `The connection ${body.name} is defined by the service's operator and cannot be replaced.`, 'Choose another name.');
    ctx.logger.info(`connection ${added.name} (${added.kind}) added`);
    return sendJson(c, ConnectionSchema, await listed(ctx, added));
  });

  app.delete('/v1/connections/:name', async (c) => {
    if (!ctx.connectionApi) throw operatorOnly();
    const name = c.req.param('name');
    const outcome = await ctx.connections.remove(name);
    if (outcome === 'unknown') throw notFound('Connection', name);
    if (outcome === 'operator') throw operatorOnly();
    ctx.logger.info(`connection ${name} removed`);
    return c.body(null, 204);
  });

  app.get('/v1/connections/:name/tables', async (c) => {
    const connection = requireConnection(ctx, c.req.param('name'), 'name');
    const tables = await connection.source.tables({ signal: c.req.raw.signal }).catch((error: unknown) => {
      throw sourceApiError(error, 'name', connectionLabel(connection.name));
    });
    return sendJson(
      c,
      z.array(SourceTableSchema),
      tables.map((t) => ({ schema: t.schema, table: t.table, ...(t.rowsEstimate === null ? {} : { rows_estimate: t.rowsEstimate }) })),
    );
  });

  app.get('/v1/connections/:name/tables/:schema/:table/columns', async (c) => {
    const connection = requireConnection(ctx, c.req.param('name'), 'name');
    const { dialect } = connection.source;
    const table = `SELECT * FROM ${qualifiedName(dialect, c.req.param('schema'), c.req.param('table'))}`;
    const columns = await connection.source.describe(table, { signal: c.req.raw.signal }).catch((error: unknown) => {
      throw sourceApiError(error, 'table', connectionLabel(connection.name));
    });
    return sendJson(
      c,
      z.array(SourceColumnSchema),
      columns.map((column) => ({ name: column.name, type: column.type, usable: column.readAs !== null })),
    );
  });
}
