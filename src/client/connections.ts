import * as z from 'zod';
import {
  ConnectionSchema,
  SourceColumnSchema,
  SourceTableSchema,
  type AddConnectionRequest,
  type Connection,
  type SourceColumn,
  type SourceTable,
} from '../contract/connections';
import { segment, type CallOptions, type Transport } from './transport';

/** The connections group (a local-service addition: feature `sources`): databases whose tables become datasets. */
export class ConnectionsApi {
  constructor(private readonly transport: Transport) {}

  /** The service's named connections; never a URL or password. */
  async list(options?: CallOptions): Promise<Connection[]> {
    return this.transport.get('connections', z.array(ConnectionSchema), options);
  }

  /**
   * Tests the connection and adds it to the running service, in memory only: send it again after each start. A
   * connection that fails its test is a 422 saying what failed (host, password, database file).
   */
  async add(params: AddConnectionRequest, options?: CallOptions): Promise<Connection> {
    return this.transport.postJson('connections', params, ConnectionSchema, options);
  }

  /** Removes a connection added with `add` (one defined by the service's operator cannot be removed). */
  async remove(name: string, options?: CallOptions): Promise<void> {
    return this.transport.send({ method: 'DELETE', path: `connections/${segment(name)}`, schema: undefined, signal: options?.signal });
  }

  /** The tables and views the connection can read. */
  async tables(name: string, options?: CallOptions): Promise<SourceTable[]> {
    return this.transport.get(`connections/${segment(name)}/tables`, z.array(SourceTableSchema), options);
  }

  /** The columns of one of its tables, with the database's type names. */
  async columns(name: string, table: Pick<SourceTable, 'schema' | 'table'>, options?: CallOptions): Promise<SourceColumn[]> {
    const path = `connections/${segment(name)}/tables/${segment(table.schema)}/${segment(table.table)}/columns`;
    return this.transport.get(path, z.array(SourceColumnSchema), options);
  }
}
