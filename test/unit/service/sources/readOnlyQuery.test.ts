import assert from 'node:assert/strict';
import { readOnlyQueryProblem, withoutTrailingSemicolon } from '../../../../src/service/sources/readOnlyQuery';

describe('service: read-only query check', () => {
  it('accepts one SELECT or WITH statement, whatever its literals and comments hold', () => {
    for (const sql of [
      'SELECT 1',
      '  select * from t;  ',
      'WITH a AS (SELECT 1) SELECT * FROM a',
      "SELECT ';DROP TABLE t' AS text -- a comment; DELETE",
      'SELECT "odd;name" FROM t /* ; */',
      'SELECT $x$;DELETE$x$ AS s',
      '(SELECT 1) UNION (SELECT 2)',
    ]) {
      assert.equal(readOnlyQueryProblem(sql), null, sql);
    }
  });

  it('names what is wrong: another statement, more than one, or nothing', () => {
    assert.match(readOnlyQueryProblem('DELETE FROM t') ?? '', /starts with DELETE/);
    assert.match(readOnlyQueryProblem('SELECT 1; DROP TABLE t') ?? '', /more than one statement/);
    assert.match(readOnlyQueryProblem('-- nothing') ?? '', /empty/);
    assert.match(readOnlyQueryProblem("COPY t TO '/tmp/x'") ?? '', /starts with COPY/);
  });

  it('drops the semicolon that ends a query (and comments after it) so that it can be a subquery', () => {
    assert.equal(withoutTrailingSemicolon('SELECT 1; -- done'), 'SELECT 1');
    assert.equal(withoutTrailingSemicolon("SELECT ';'"), "SELECT ';'");
    assert.equal(withoutTrailingSemicolon('SELECT 1 -- no semicolon'), 'SELECT 1 -- no semicolon');
  });
});
