import assert from 'node:assert/strict';
import { dataConnectionSecrets, dataConnectionUrlProblem } from '../../../src/common/dataConnectionUrl';
import { connectionKindOf } from '../../../src/contract/connections';
import { maskSecrets } from '../../../src/common/mask';

describe('data connection URLs', () => {
  it('accepts the forms the service takes', () => {
    for (const url of ['postgres://ana:pw@db.example:5432/sales', 'postgresql://db.example/sales', 'duckdb:///srv/data/shop.db', 'duckdb::memory:', ' duckdb:///C:/data/shop.db ']) {
      assert.equal(dataConnectionUrlProblem(url), undefined, url);
    }
    assert.equal(connectionKindOf('postgresql://h/db'), 'postgres');
    assert.equal(connectionKindOf('duckdb::memory:'), 'duckdb');
    assert.equal(connectionKindOf('mysql://h/db'), undefined);
  });

  it('says what to fix, without repeating the URL', () => {
    const cases: [string, RegExp][] = [
      ['', /^Enter a URL/],
      ['mysql://ana:hunter22@h/db', /^Start the URL with postgres:\/\/ \(PostgreSQL\) or duckdb:/],
      ['postgres://ana:hunter22@db.example:5432', /^Add the database name after the host/],
      ['postgres://ana:hunter22@:5432/db', /^This is not a valid URL: write it as postgres:\/\/user:password@host:5432\/database \(encode @/],
      ['postgres:///sales', /^Add the host/],
      ['duckdb://shop.db', /absolute path after duckdb:\/\/ \(three slashes/],
      ['duckdb:///srv/data/', /^Name the database file, not a folder/],
    ];
    for (const [url, expected] of cases) {
      const problem = dataConnectionUrlProblem(url);
      assert.match(problem ?? '', expected, url);
      assert.ok(!problem?.includes('hunter22'), 'the password is never repeated');
    }
  });

  it('gives the password as written and decoded, so the log masks both', () => {
    assert.deepEqual(dataConnectionSecrets('postgres://ana:p%40ss@h/db'), ['p%40ss', 'p@ss']);
    assert.deepEqual(dataConnectionSecrets('postgres://ana@h/db'), []);
    assert.deepEqual(dataConnectionSecrets('duckdb::memory:'), []);
  });

  it('is masked in log lines even when the password was never registered', () => {
    assert.equal(
      maskSecrets('adding postgres://ana:s3cret@db:5432/sales and postgresql://bo:a@b@h/x; duckdb:///srv/shop.db'),
      'adding postgres://ana:***@db:5432/sales and postgresql://bo:***@h/x; duckdb:///srv/shop.db',
    );
    assert.equal(maskSecrets('mail ana@example.com at http://example.com/a@b'), 'mail ana@example.com at http://example.com/a@b');
  });
});
