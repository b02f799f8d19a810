import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { client, removeDir, runCli, startService, tempDataDir, TEST_BACKEND } from './harness';
import { trainSmall } from './fixtures';

describe('service: CLI and durability', function () {
  this.timeout(90_000);

  // The embedded store: a SQLite file in the data dir, held by one service (postgresService.test.ts: the team server).
  if (TEST_BACKEND === 'sqlite') {
    it('serve prints one JSON line, keeps the key in a 0600 file and stops cleanly on SIGTERM', async () => {
      const service = await startService();
      try {
        assert.match(service.url, /^http:\/\/127\.0\.0\.1:\d+$/);
        const keyFile = join(service.dataDir, 'api_key');
        assert.equal(statSync(keyFile).mode & 0o777, 0o600);
        assert.equal(readFileSync(keyFile, 'utf8').trim(), service.apiKey);
        assert.ok(!readFileSync(join(service.dataDir, 'xmodels.db')).includes(Buffer.from(service.apiKey)), 'the key is stored hashed');
        assert.equal((await client(service.url, service.apiKey)('GET', '/v1/teams')).status, 200);
      } finally {
        assert.equal(await service.stop(), 0);
      }
      assert.ok(!existsSync(join(service.dataDir, 'service.pid')));
      const again = await startService({ dataDir: service.dataDir });
      assert.equal(again.apiKey, service.apiKey, 'the default key survives restarts');
      assert.equal(again.teamId, service.teamId);
      await again.stop();
      removeDir(service.dataDir);
    });

    it('refuses a non-loopback host without --allow-remote, and a second service on the same data dir', async () => {
      const dataDir = tempDataDir();
      const remote = await runCli(['serve', '--host', '0.0.0.0', '--data-dir', dataDir]);
      assert.equal(remote.code, 2);
      assert.match(remote.stderr, /0\.0\.0\.0.*--allow-remote/);
      assert.equal(remote.stdout, '');
      const first = await startService({ dataDir });
      const second = await runCli(['serve', '--port', '0', '--data-dir', dataDir]);
      assert.equal(second.code, 1);
      assert.match(second.stderr, new RegExp(`pid ${first.child.pid}`));
      await first.stop();
      removeDir(dataDir);
    });

    it('keeps committed models across kill -9 and starts despite the stale database lock', async () => {
      const service = await startService();
      const call = client(service.url, service.apiKey);
      const trained = await trainSmall(call);
      await service.kill9();
      assert.ok(existsSync(join(service.dataDir, 'service.pid')), 'kill -9 leaves the pid file');
      mkdirSync(join(service.dataDir, 'xmodels.db.lock'), { recursive: true });

      const restarted = await startService({ dataDir: service.dataDir });
      const again = client(restarted.url, restarted.apiKey);
      const model = await again('GET', `/v1/models/${trained.model_id}`);
      assert.equal(model.status, 200);
      assert.equal(model.body.latest_version_id, trained.version_id);
      const profile = await again('GET', `/v1/models/profile/${trained.version_id}`);
      assert.equal(profile.status, 200);
      const more = await trainSmall(again, { model_id: trained.model_id });
      assert.equal((await again('GET', `/v1/models/versions/${trained.model_id}`)).body[0].version_id, more.version_id);
      await restarted.stop();
      removeDir(service.dataDir);
    });
  }

  it('prints the usage of every command with --help or -h, and exits 0', async () => {
    for (const args of [['--help'], ['-h'], ['serve', '--help'], ['serve', '--port', '0', '-h'], ['keys', 'create', '--help'], ['keys', '-h'], ['copy-model', '--help']]) {
      const help = await runCli(args);
      assert.equal(help.code, 0, `${args.join(' ')}: ${help.stderr}`);
      assert.equal(help.stderr, '', args.join(' '));
      assert.match(help.stdout, /^Usage:\n/, args.join(' '));
      const command = args[0].startsWith('-') ? null : args[0];
      for (const named of ['serve', 'keys', 'copy-model']) {
        const shown = help.stdout.includes(`  xmodels ${named} `);
        assert.equal(shown, command === null || command === named, `${args.join(' ')} ${shown ? 'shows' : 'leaves out'} ${named}`);
      }
    }
  });

  it('rejects bad options with a usage message', async () => {
    const bad = await runCli(['serve', '--port', 'eighty']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--port.*eighty/);
    for (const lease of ['0', '-3', 'soon']) {
      const badLease = await runCli(['serve', '--job-lease-s', lease]);
      assert.equal(badLease.code, 2);
      assert.match(badLease.stderr, new RegExp(`--job-lease-s must be a positive number of seconds \\(got ${lease}\\)`));
    }
    const unknown = await runCli(['frobnicate']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown command frobnicate/);
    const dataDir = tempDataDir();
    writeFileSync(join(dataDir, 'placeholder'), '');
    const noTeam = await runCli(['keys', 'create', '--data-dir', dataDir]);
    assert.equal(noTeam.code, 2);
    assert.match(noTeam.stderr, /--team/);
    removeDir(dataDir);
  });
});
