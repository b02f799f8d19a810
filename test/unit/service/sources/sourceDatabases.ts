import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Client } from 'pg';
import { churnCsv } from '../../client/localService';
import { testCluster } from '../postgresCluster';

/** The rows of churnCsv as values, in its column order. */
export function churnRows(rows: number): string[][] {
  return churnCsv(rows).trim().split('\n').slice(1).map((line) => line.split(','));
}

const CREATE_CUSTOMERS =
  'CREATE TABLE customers (customer_id TEXT, tenure INTEGER, plan TEXT, monthly NUMERIC(6, 2), region TEXT, churned TEXT)';

/**
 * A fresh PostgreSQL database (the test role's URL, with its password) holding `customers`, a table of unusable types
 * and a sequence (whose nextval writes).
 */
export async function postgresWithCustomers(rows: number): Promise<string> {
  const url = await (await testCluster()).createDatabase();
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(CREATE_CUSTOMERS);
    for (const row of churnRows(rows)) await db.query('INSERT INTO customers VALUES ($1, $2, $3, $4, $5, $6)', row);
    await db.query('CREATE TABLE tagged (id INTEGER, tags INTEGER[], extra JSONB)');
    await db.query(`INSERT INTO tagged VALUES (1, '{1,2}', '{"a": 1}')`);
    await db.query('CREATE SEQUENCE counter');
    await db.query('ANALYZE');
  } finally {
    await db.end();
  }
  return url;
}

/** A DuckDB file in `dir` holding `customers`, and the same rows as `customers.parquet` beside it (COPY … TO). */
export async function duckdbWithCustomers(dir: string, rows: number): Promise<{ file: string; parquet: string }> {
  const file = join(dir, 'warehouse.duckdb');
  const parquet = join(dir, 'customers.parquet');
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    await connection.run(CREATE_CUSTOMERS.replace('TEXT', 'VARCHAR'));
    const values = churnRows(rows).map(([id, tenure, plan, monthly, region, churned]) => `('${id}', ${tenure}, '${plan}', ${monthly}, '${region}', '${churned}')`);
    await connection.run(`INSERT INTO customers VALUES ${values.join(', ')}`);
    await connection.run('CREATE TABLE tagged (id INTEGER, tags INTEGER[], extra JSON)');
    await connection.run(`COPY customers TO '${parquet}' (FORMAT parquet)`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return { file, parquet };
}
