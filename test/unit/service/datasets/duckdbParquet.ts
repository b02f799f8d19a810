import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

let connection: Promise<DuckDBConnection> | null = null;

/** One in-memory DuckDB per test run: an independent Parquet (and CSV) writer. */
function duckdb(): Promise<DuckDBConnection> {
  connection ??= DuckDBInstance.create(':memory:').then(async (db) => {
    const con = await db.connect();
    await con.run(`SET TimeZone = 'UTC'`);
    return con;
  });
  return connection;
}

const quoted = (path: string) => `'${path.replace(/'/g, "''")}'`;

/** Runs `COPY (select) TO target (FORMAT parquet[, options])`; `select` may read files with read_csv(…). */
export async function writeParquet(select: string, target: string, options = ''): Promise<string> {
  await (await duckdb()).run(`COPY (${select}) TO ${quoted(target)} (FORMAT parquet${options ? `, ${options}` : ''})`);
  return target;
}

/** Runs `COPY (select) TO target (FORMAT csv)`: the same rows as DuckDB writes them as text. */
export async function writeCsv(select: string, target: string): Promise<string> {
  await (await duckdb()).run(`COPY (${select}) TO ${quoted(target)} (FORMAT csv)`);
  return target;
}

/** A sample CSV as DuckDB reads it (typed columns, or every column as VARCHAR), written as Parquet. */
export function csvAsParquet(csvPath: string, target: string, allVarchar = false): Promise<string> {
  return writeParquet(`SELECT * FROM read_csv(${quoted(csvPath)}${allVarchar ? ', all_varchar = true' : ''})`, target);
}
