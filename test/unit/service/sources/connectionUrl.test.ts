import assert from 'node:assert/strict';
import { connectionsFromEnvironment, parseConnectionDefinitions, parseConnectionUrl } from '../../../../src/service/sources/connectionUrl';

describe('service: connection definitions', () => {
  it('reads NAME=URL pairs of PostgreSQL and DuckDB URLs, from flags or the environment', () => {
    const env = connectionsFromEnvironment('  sales=postgres://u:pw@db:5432/sales\n local=duckdb:///data/w.duckdb   files=duckdb::memory: ');
    const parsed = parseConnectionDefinitions(env);
    assert.deepEqual(
      [...parsed].map(([name, target]) => [name, target.kind, target.duckdbPath]),
      [
        ['sales', 'postgres', undefined],
        ['local', 'duckdb', '/data/w.duckdb'],
        ['files', 'duckdb', ':memory:'],
      ],
    );
    assert.equal(parseConnectionUrl('postgresql://h/db').kind, 'postgres');
    assert.deepEqual(connectionsFromEnvironment(undefined), []);
  });

  it('rejects a bad name or URL naming it, never showing a password', () => {
    const problem = (definitions: string[]) => {
      try {
        parseConnectionDefinitions(definitions);
      } catch (error) {
        return (error as Error).message;
      }
      assert.fail(`accepted ${definitions.join(' ')}`);
    };
    assert.match(problem(['1bad=duckdb::memory:']), /connection name "1bad"/);
    assert.match(problem(['postgres://u:secret@h/db']), /has no name/);
    assert.match(problem(['a=mysql://u:secret@h/db']), /mysql:\/\/u:\*\*\*@h\/db is neither/);
    assert.match(problem(['a=postgres://u:secret@h']), /not a PostgreSQL URL/);
    assert.match(problem(['a=duckdb://relative.db']), /absolute path/);
    assert.match(problem(['a=duckdb::memory:', 'a=duckdb::memory:']), /defined twice/);
    for (const definitions of [['postgres://u:secret@h/db'], ['a=mysql://u:secret@h/db'], ['a=postgres://u:secret@h']]) {
      assert.ok(!problem(definitions).includes('secret'));
    }
  });
});
