import assert from 'node:assert/strict';
import { DuckDBInstance } from '@duckdb/node-api';
import { Database } from 'node-sqlite3-wasm';
import { mulberry32 } from '../../../src/engine';
import { SQL_DIALECTS } from '../../../src/modelExport/sqlDialect';

/** The Python export's rule for text that is a number (`_NUMBER`), with ASCII spaces around. */
const PLAIN_NUMBER = /^[ \t\n\v\f\r]*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\v\f\r]*$/;

/** Texts near the rule's edges, random strings of its characters, and decimals of every precision. */
function numberTexts(): string[] {
  const random = mulberry32(3);
  const texts = ['1', '1.', '.5', '+3', '-0', '1e5', '1E+05', '1e-320', '1e400', '007', '3.14159265358979323846', '123456789012345678901234567890',
    ' 12 ', '\t7\n', '1e', 'e5', '.', '+', '-', '1.2.3', '1e5.0', '+-5', '1-2', '1e+', '0x1F', 'inf', 'NaN', '', '  ', '1_000', '12abc', '1,5'];
  for (let i = 0; i < 2000; i++) {
    texts.push(Array.from({ length: 1 + Math.floor(random() * 6) }, () => '0123456789.eE+- '[Math.floor(random() * 16)]).join(''));
    texts.push((random() * 10 ** Math.floor(random() * 20 - 10)).toPrecision(1 + Math.floor(random() * 17)));
  }
  return texts;
}

describe('SQL export: numbers stored as text', () => {
  const texts = numberTexts();
  const expected = texts.map((t) => (PLAIN_NUMBER.test(t) ? Number(t) : null));

  it('SQLite reads text that is a plain decimal number as that number, exactly, and any other text as no number', () => {
    const { isNumber, numberValue } = SQL_DIALECTS.sqlite;
    const db = new Database(':memory:');
    try {
      db.run('CREATE TABLE input_rows (c TEXT)');
      for (const t of texts) db.run('INSERT INTO input_rows VALUES (?)', [t]);
      const read = db.all(`SELECT CASE WHEN ${isNumber('c', false)} THEN ${numberValue('c', false)} END AS v FROM input_rows ORDER BY rowid`).map((r) => r.v);
      const differences = texts.flatMap((t, i) => (read[i] === expected[i] ? [] : [`${JSON.stringify(t)}: SQLite ${read[i]}, Python ${expected[i]}`]));
      assert.deepEqual(differences, []);
      assert.ok(expected.filter((v) => v !== null).length > 2000, 'most texts are numbers');
    } finally {
      db.close();
    }
  });

  it('DuckDB reads them alike', async () => {
    const { isNumber, numberValue } = SQL_DIALECTS.duckdb;
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await connection.run('CREATE TABLE input_rows (i INTEGER, c VARCHAR)');
      const appender = await connection.createAppender('input_rows');
      texts.forEach((t, i) => {
        appender.appendInteger(i);
        appender.appendVarchar(t);
        appender.endRow();
      });
      appender.closeSync();
      const rows = (await connection.runAndReadAll(`SELECT CASE WHEN ${isNumber('c', false)} THEN ${numberValue('c', false)} END AS v FROM input_rows ORDER BY i`)).getRowObjectsJS();
      const read = rows.map((r) => r.v as number | null);
      const differences = texts.flatMap((t, i) => (read[i] === expected[i] ? [] : [`${JSON.stringify(t)}: DuckDB ${read[i]}, Python ${expected[i]}`]));
      assert.deepEqual(differences, []);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
