import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { client, removeDir, runCli, startService, tempDataDir } from './harness';
import { smallCsv, uploadCsv } from './fixtures';
import { testCluster } from './postgresCluster';

/** The team server: `serve --database` and `keys --database` on PostgreSQL, whichever backend the suite runs on. */
describe('service: the team server on PostgreSQL', function () {
  this.timeout(120_000);

  it('the first start on an empty database prints the default key, later starts only the team, and keys commands use the database', async () => {
    const database = await (await testCluster()).createDatabase();
    const first = await startService({ database });
    assert.deepEqual(Object.keys(first.printed).sort(), ['api_key', 'team_id', 'url']);
    const call = client(first.url, first.apiKey);
    assert.equal((await call('GET', '/v1/teams')).status, 200);
    assert.ok(!existsSync(join(first.dataDir, 'api_key')), 'no key file: the key is printed once and stored hashed');
    assert.equal(await first.stop(), 0);

    const again = await runCli(['serve', '--port', '0', '--data-dir', tempDataDir(), '--database', database, '--max-pending-jobs', 'x']);
    assert.equal(again.code, 2, 'options are checked before the database is opened');
    const second = await startService({ database, dataDir: tempDataDir() });
    assert.deepEqual(second.printed, { url: second.url, team_id: first.teamId }, 'a later start prints no key');
    const printed = JSON.parse((await runCli(['keys', 'create', '--database', database, '--team', 'analysts'])).stdout) as { api_key: string; team_id: string };
    assert.match(printed.api_key, /^xm_/);
    const analysts = client(second.url, printed.api_key);
    assert.deepEqual(
      (await analysts('GET', '/v1/teams')).body.map((t: { team_name: string }) => t.team_name),
      ['analysts'],
    );
    const listed = (await runCli(['keys', 'list', '--database', database])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { teams: string[] });
    assert.deepEqual(listed.map((k) => k.teams).sort(), [['analysts'], ['default']]);

    const stored = new Client({ connectionString: database });
    await stored.connect();
    try {
      const rows = await stored.query<{ key_hash: string }>('SELECT key_hash FROM api_keys');
      assert.equal(rows.rows.length, 2);
      assert.ok(rows.rows.every((r) => r.key_hash !== first.apiKey && r.key_hash !== printed.api_key), 'keys are stored hashed');
    } finally {
      await stored.end();
    }
    await second.stop();
    removeDir(first.dataDir);
    removeDir(second.dataDir);
  });

  it('a replica started after kill -9 on an empty scratch dir serves and refits what the database holds', async () => {
    const database = await (await testCluster()).createDatabase();
    const first = await startService({ database });
    const call = client(first.url, first.apiKey);
    const datasetId = await uploadCsv(call, smallCsv());
    const trained = await call('POST', '/v1/models/train', { json: { dataset_id: datasetId, target_column: 'label', model_name: 'kept' } });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    await first.kill9();
    removeDir(first.dataDir);

    const next = await startService({ database, dataDir: tempDataDir() });
    const again = client(next.url, next.apiKey);
    assert.equal((await again('GET', `/v1/models/${trained.body.model_id}`)).body.latest_version_id, trained.body.version_id);
    const more = await again('POST', '/v1/models/train', { json: { dataset_id: datasetId, target_column: 'label', model_id: trained.body.model_id } });
    assert.equal(more.status, 200, 'the dataset bytes came from the database');
    await next.stop();
    removeDir(next.dataDir);
  });

  it('health answers 503 while the replica cannot reach its database, for the load balancer', async () => {
    const cluster = await testCluster();
    const database = await cluster.createDatabase();
    const service = await startService({ database });
    const health = () => fetch(`${service.url}/v1/health`).then((r) => r.status);
    assert.equal(await health(), 200);
    await cluster.admin([`DROP DATABASE ${new URL(database).pathname.slice(1)} WITH (FORCE)`]);
    assert.equal(await health(), 503);
    assert.match(service.stderr(), /health check: the database did not answer/);
    await service.stop();
    removeDir(service.dataDir);
  });

  it('says what is wrong with a bad or unreachable database URL', async () => {
    const notPostgres = await runCli(['serve', '--port', '0', '--data-dir', tempDataDir(), '--database', 'mysql://u:secret@localhost/db']);
    assert.equal(notPostgres.code, 2);
    assert.match(notPostgres.stderr, /--database must be a PostgreSQL URL.*"mysql"/);
    assert.doesNotMatch(notPostgres.stderr, /secret/);
    const cluster = await testCluster();
    const unreachable = await runCli(['keys', 'list', '--database', `postgres://${cluster.user}:${cluster.password}@127.0.0.1:1/none`]);
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /Cannot connect to .*127\.0\.0\.1:1.*start the server or fix the host and port/);
    assert.ok(!unreachable.stderr.includes(cluster.password), 'the password is never printed');
  });
});
