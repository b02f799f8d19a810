// `node scripts/sample-parquet.mjs`: writes media/datasets/penguins.parquet, the sample workspace's Parquet file, from
// penguins.csv with DuckDB (an independent writer: typed columns, dictionary-encoded text, zstd).
import { DuckDBInstance } from '@duckdb/node-api';

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(
  `COPY (SELECT * FROM read_csv('media/datasets/penguins.csv')) TO 'media/datasets/penguins.parquet' (FORMAT parquet, COMPRESSION zstd)`,
);
console.log('wrote media/datasets/penguins.parquet');
