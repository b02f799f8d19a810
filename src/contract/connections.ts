import * as z from 'zod';
import { ignoredFields } from './requestFields';

/** A connection's name: what requests, datasets and logs use instead of its URL. */
export const ConnectionNameSchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,62}$/, 'a letter, then up to 62 letters, digits, _ or -');

export const ConnectionKindSchema = z.enum(['postgres', 'duckdb']);
export type ConnectionKind = z.infer<typeof ConnectionKindSchema>;

/** The in-memory DuckDB, whose SQL reads local files; a DuckDB file is `duckdb://` and its absolute path. */
export const DUCKDB_MEMORY_URL = 'duckdb::memory:';
export const DUCKDB_FILE_PREFIX = 'duckdb://';

/** The kind of database a connection URL points at (its scheme alone), or undefined when it is neither form. */
export function connectionKindOf(url: string): ConnectionKind | undefined {
  if (/^postgres(ql)?:\/\//i.test(url)) return 'postgres';
  if (url === DUCKDB_MEMORY_URL || url.startsWith(DUCKDB_FILE_PREFIX)) return 'duckdb';
  return undefined;
}

/** A named connection as the service lists it: never its URL or password. */
export const ConnectionSchema = z.object({
  name: ConnectionNameSchema,
  kind: ConnectionKindSchema,
  tables: z.number().int().nonnegative().optional().describe('tables and views it can read; absent when it cannot be reached now'),
  origin: z.enum(['operator', 'api']).describe('operator: defined by serve --connection or XMODELS_CONNECTIONS; api: added by POST /v1/connections (kept in memory)'),
});
export type Connection = z.infer<typeof ConnectionSchema>;

export const AddConnectionRequestSchema = z.strictObject({
  name: ConnectionNameSchema,
  url: z.string().min(1).describe('postgres://user:password@host:5432/db, duckdb:///abs/path.db or duckdb::memory:'),
  ...ignoredFields('team_id'),
});
export type AddConnectionRequest = z.infer<typeof AddConnectionRequestSchema>;

export const SourceTableSchema = z.object({
  schema: z.string(),
  table: z.string(),
  rows_estimate: z.number().int().nonnegative().optional().describe("the database's own estimate, when it keeps one"),
});
export type SourceTable = z.infer<typeof SourceTableSchema>;

export const SourceColumnSchema = z.object({
  name: z.string(),
  type: z.string().describe("the database's type name"),
  usable: z.boolean().describe('false for a type no model can use (lists, JSON, geometry, binary…)'),
});
export type SourceColumn = z.infer<typeof SourceColumnSchema>;
