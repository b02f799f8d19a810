import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { sqlName } from '../../../../src/codeText/sql';
import { mulberry32 } from '../../../../src/engine';
import { client, removeDir, startService, type Call, type ServiceProcess } from '../harness';

/** A target and a feature whose names would end the scoring query's comment and add SQL of their own. */
const TARGET = 'churned\n) AS scored; DROP TABLE customers; --';
const FEATURE = 'x1 */ --\n, 1 AS injected';

describe('pushdown: column names that look like SQL stay names in the queries the service runs', function () {
  this.timeout(120_000);
  let dir: string;
  let file: string;
  let service: ServiceProcess;
  let call: Call;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'xmodels-pushdown-names-'));
    file = join(dir, 'customers.duckdb');
    const instance = await DuckDBInstance.create(file);
    const connection = await instance.connect();
    await connection.run(`CREATE TABLE customers (${sqlName(FEATURE)} DOUBLE, grade VARCHAR, ${sqlName(TARGET)} INTEGER)`);
    const appender = await connection.createAppender('customers');
    const random = mulberry32(3);
    for (let i = 0; i < 600; i++) {
      const x = Math.round(random() * 1000) / 10;
      const grade = ['a', 'b', 'c'][i % 3];
      appender.appendDouble(x);
      appender.appendVarchar(grade);
      appender.appendInteger(random() < 1 / (1 + Math.exp(-(x - 50) / 15 - (grade === 'a' ? 1 : 0))) ? 1 : 0);
      appender.endRow();
    }
    appender.closeSync();
    connection.closeSync();
    instance.closeSync();
    service = await startService({ args: ['--connection', `duckdb=duckdb://${file}`] });
    call = client(service.url, service.apiKey);
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
    rmSync(dir, { recursive: true, force: true });
  });

  it('trains in the database, scores its test rows there, and writes predictions with the columns named as they are', async () => {
    const registered = await call('POST', '/v1/datasets', { json: { name: 'customers', source: { connection: 'duckdb', table: 'customers' } } });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    const datasetId = registered.body.dataset_id as string;
    const trained = await call('POST', '/v1/models/train', {
      json: { dataset_id: datasetId, target_column: TARGET, model_type: 'classifier', model_name: TARGET, execution: 'pushdown' },
    });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    assert.equal(trained.body.execution, 'pushdown');
    assert.ok((trained.body.test_metrics.roc_auc as number) > 0.6, `test AUC ${trained.body.test_metrics.roc_auc}`);
    const written = await call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { dataset_id: datasetId, output_table: 'scored', explain: true } });
    assert.equal(written.status, 200, JSON.stringify(written.body));
    assert.equal(written.body.n, 600);
    assert.deepEqual(written.body.columns.slice(0, 3), [FEATURE, 'grade', TARGET]);
    assert.ok(written.body.columns.includes(`xm_contribution_${FEATURE}`));
    assert.ok(!written.body.columns.includes('injected'));
    const again = await call('POST', '/v1/datasets', { json: { name: 'customers again', source: { connection: 'duckdb', table: 'customers' } } });
    assert.equal(again.status, 200, 'the table is still there');
    assert.equal(again.body.rows, 600);
  });
});
