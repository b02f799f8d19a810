import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Dataset, DatasetSource, RegisterConnectionDatasetRequest } from '../../contract';
import { ColumnValuesBuilder } from '../../engine';
import type { ServiceContext } from '../http/context';
import { ApiError, invalid } from '../base/errors';
import { insertDataset } from '../store/datasets';
import { connectionLabel, sourceApiError } from '../sources/apiErrors';
import type { NamedConnection } from '../sources/connections';
import { readOnlyQueryProblem } from '../sources/readOnlyQuery';
import { countSql, readRowsSql, relationSql } from '../sources/relation';
import type { SourceColumnInfo, SqlSource } from '../sources/source';
import { scanStoredFrame } from './datasetScans';
import { publish } from '../datasetFiles/fileCache';
import { framePath } from '../datasetFiles/frameFile';

/** Rows fetched from a source per round trip while a dataset's frame is read. */
const BATCH_ROWS = 10_000;
/** Rows a column's arrays start with (they double as rows come). */
const EXPECTED_ROWS = 65_536;

/** The request field a source's failure is about. */
const fieldOf = (source: { table?: string; query?: string }) => (source.query !== undefined ? 'source.query' : 'source.table');

/** The named connection; 404 naming the connections there are. */
export function requireConnection(ctx: ServiceContext, name: string, field: string): NamedConnection {
  const found = ctx.connections.find(name);
  if (found) return found;
  const names = ctx.connections.list().map((c) => c.name);
  throw new ApiError(
    404,
    'NOT_FOUND',
    `There is no connection named ${name}; ${names.length ? `the service has ${names.join(', ')}` : 'the service has none'}.`,
    'Add it with POST /v1/connections, or start the service with --connection NAME=URL.',
    [{ path: field, message: 'unknown connection' }],
  );
}

/** 422 naming the first column a model cannot use, or a column name given twice (the frame needs unique names). */
export function checkColumns(columns: readonly SourceColumnInfo[], field: string): void {
  if (columns.length === 0) throw invalid(field, 'The source has no columns.');
  const unusable = columns.find((c) => c.readAs === null);
  if (unusable) {
    throw invalid(
      field,
      `Column ${unusable.name} has type ${unusable.type}, which no model can use (lists, records, JSON, geometry and binary values cannot be features).`,
      'Leave the column out, or register a query that converts it (to text or a number).',
    );
  }
  const seen = new Set<string>();
  const repeated = columns.find((c) => seen.size === seen.add(c.name).size);
  if (repeated) throw invalid(field, `The source names the column ${repeated.name} more than once.`, 'Give every column its own name (AS …).');
}

/**
 * Registers a table or read-only query of a named connection as a dataset without copying its rows: the connection,
 * the statement and the column types are checked, and the rows counted, in the source; only the connection's name
 * is stored. Any failure leaves nothing behind.
 */
export async function registerSourceDataset(
  ctx: ServiceContext,
  teamId: string,
  body: RegisterConnectionDatasetRequest,
  signal?: AbortSignal,
): Promise<Dataset> {
  const spec = body.source;
  const field = fieldOf(spec);
  const connection = requireConnection(ctx, spec.connection, 'source.connection');
  if ('query' in spec) {
    const problem = readOnlyQueryProblem(spec.query);
    if (problem) throw invalid('source.query', problem, 'Register one SELECT (or WITH … SELECT) statement.');
  }
  const relation = relationSql(connection.source.dialect, spec);
  try {
    const columns = await connection.source.describe(relation, { signal });
    checkColumns(columns, field);
    const [{ n }] = await connection.source.query(countSql(relation), [], { signal });
    const rows = Number(n);
    if (rows === 0) throw invalid(field, `The ${'query' in spec ? 'query' : `table ${spec.table}`} has no rows.`, 'Register a table or query with at least one row.');
    const source: DatasetSource = 'query' in spec ? { connection: connection.name, query: spec.query } : { connection: connection.name, table: spec.table };
    const dataset: Dataset = {
      dataset_id: randomUUID(),
      name: (body.name ?? ('table' in spec ? spec.table : `${connection.name} query ${new Date().toISOString().slice(0, 19)}`)).trim(),
      rows,
      columns: columns.map((c) => c.name),
      size_bytes: 0,
      created: new Date().toISOString(),
      source,
    };
    await insertDataset(ctx.store, teamId, dataset);
    return dataset;
  } catch (error) {
    throw sourceApiError(error, field, connectionLabel(connection.name));
  }
}

/** Frames being read from their sources, by CSV path: concurrent first uses of a dataset share one read. */
const reading = new Map<string, Promise<void>>();

/**
 * Makes sure a source dataset's rows are in its stored frame (as an uploaded CSV's are), reading them from the
 * source at the dataset's first use and keeping the frame from then on. Over the in-memory budget it is a 422.
 */
export async function ensureSourceFrame(ctx: ServiceContext, dataset: Dataset & { source: DatasetSource; path: string }, field: string): Promise<void> {
  if (dataset.rows > ctx.maxRowsInMemory) throw overBudget(dataset, ctx.maxRowsInMemory, field);
  if (existsSync(framePath(dataset.path))) return;
  let pending = reading.get(dataset.path);
  if (!pending) {
    pending = readSourceFrame(ctx, dataset, field).finally(() => reading.delete(dataset.path));
    reading.set(dataset.path, pending);
  }
  await pending;
}

export function overBudget(dataset: Dataset, budget: number, field: string): ApiError {
  return invalid(
    field,
    `Dataset ${dataset.name} (${dataset.dataset_id}) has ${dataset.rows} rows in its source, more than this service reads into memory (--max-rows-in-memory ${budget}).`,
    'Train it where its rows live (execution "auto" or "pushdown"), register a query that selects fewer rows, or start the service with a larger --max-rows-in-memory.',
  );
}

/**
 * Streams a relation's rows in batches into the engine's columns (at most `limit` rows: one more is `tooMany`'s
 * error), holding each column's typed arrays rather than its cells, then stores their frame at `path` on the worker
 * pool; resolves with the number of rows.
 */
export async function storeRelationFrame(
  ctx: ServiceContext,
  source: SqlSource,
  read: {
    relation: string;
    columns: readonly SourceColumnInfo[];
    path: string;
    limit: number;
    /** What the rows are ordered by before their columns (`readRowsSql`'s `orderFirst`). */
    orderFirst?: string;
    tooMany: (rows: number) => Error;
    signal?: AbortSignal;
    /** Told the rows read so far after each batch. */
    onRows?: (rows: number) => void;
  },
): Promise<number> {
  const builders = read.columns.map((c) => new ColumnValuesBuilder(c.name, Math.min(read.limit, EXPECTED_ROWS)));
  let rows = 0;
  for await (const batch of source.stream(readRowsSql(source.dialect, read.relation, read.columns, read.limit + 1, read.orderFirst), [], { batchRows: BATCH_ROWS, signal: read.signal })) {
    rows += batch.length;
    if (rows > read.limit) throw read.tooMany(rows);
    for (const row of batch) for (let k = 0; k < row.length; k++) builders[k].add(row[k]);
    read.onRows?.(rows);
  }
  if (rows > 0) await ctx.trainer.storeFrame(read.path, rows, builders.map((b) => b.finish()));
  return rows;
}

/** Reads a source dataset's rows into its stored frame, checking that its columns are still the registered ones. */
async function readSourceFrame(ctx: ServiceContext, dataset: Dataset & { source: DatasetSource; path: string }, field: string): Promise<void> {
  const connection = requireConnection(ctx, dataset.source.connection, field);
  const { source } = connection;
  try {
    const relation = relationSql(source.dialect, dataset.source);
    const columns = await sourceColumns(source, relation, dataset, field);
    const budget = ctx.maxRowsInMemory;
    const rows = await storeRelationFrame(ctx, source, { relation, columns, path: dataset.path, limit: budget, tooMany: (n) => overBudget({ ...dataset, rows: n }, budget, field) });
    if (rows === 0) throw invalid(field, `The source of dataset ${dataset.name} has no rows any more.`);
    await publish(ctx.store.files, dataset.path);
    scanStoredFrame(ctx, dataset.path);
    ctx.logger.info(`dataset ${dataset.dataset_id} read from connection ${connection.name} (${rows} rows)`);
  } catch (error) {
    throw sourceApiError(error, field, connectionLabel(connection.name));
  }
}

/** The columns of a dataset's relation as the source describes them now: 422 when they are no longer the registered ones. */
export async function sourceColumns(source: SqlSource, relation: string, dataset: Dataset, field: string, signal?: AbortSignal): Promise<SourceColumnInfo[]> {
  const columns = await source.describe(relation, { signal });
  const names = columns.map((c) => c.name);
  if (names.join('\n') !== dataset.columns.join('\n')) {
    throw invalid(field, `The source of dataset ${dataset.name} has changed its columns since it was registered (now ${names.join(', ')}).`, 'Register it again.');
  }
  checkColumns(columns, field);
  return columns;
}
