import assert from 'node:assert/strict';
import { client, removeDir, runCli, startService, storeArgs, type Call, type ServiceProcess } from './harness';
import { trainSmall, uploadCsv, smallCsv } from './fixtures';

describe('service: teams and isolation', function () {
  this.timeout(60_000);
  let service: ServiceProcess;
  let alice: Call;
  let bob: Call;
  let bobTeam: string;

  before(async () => {
    service = await startService();
    alice = client(service.url, service.apiKey);
    const created = await runCli(['keys', 'create', ...storeArgs(service), '--team', 'research']);
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout) as { api_key: string; team_id: string };
    bob = client(service.url, key.api_key);
    bobTeam = key.team_id;
  });
  after(async () => {
    await service.stop();
    removeDir(service.dataDir);
  });

  it('connect and teams describe the key and its team', async () => {
    const connect = await bob('GET', '/v1/client/connect');
    assert.equal(connect.status, 200);
    assert.equal(connect.body.team_id, bobTeam);
    assert.equal(connect.body.team_name, 'research');
    assert.deepEqual((await bob('GET', '/v1/teams')).body, [{ team_id: bobTeam, team_name: 'research' }]);
    assert.notEqual(bobTeam, service.teamId);
  });

  it("another team's objects are 404 and its id is 403", async () => {
    const model = await trainSmall(alice);
    const datasetId = await uploadCsv(alice, smallCsv());
    assert.equal((await bob('GET', `/v1/models/${model.model_id}`)).status, 404);
    assert.equal((await bob('GET', `/v1/models/versions/${model.model_id}`)).status, 404);
    assert.equal((await bob('GET', `/v1/models/profile/${model.version_id}`)).status, 404);
    assert.equal((await bob('GET', `/v1/models/evaluation/${model.partitions[0].partition_id}`)).status, 404);
    assert.equal((await bob('DELETE', `/v1/models/${model.model_id}`)).status, 404);
    assert.equal((await bob('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'x', dataset_id: datasetId } })).status, 404);
    assert.equal((await bob('POST', `/v1/models/versions/${model.version_id}/predict`, { json: { csv_content: 'x\n1\n' } })).status, 404);
    assert.deepEqual((await bob('GET', '/v1/datasets')).body, []);

    const forbidden = await bob('GET', `/v1/models/teams/${service.teamId}`);
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.error.code, 'FORBIDDEN');
    assert.ok(forbidden.body.detail.includes(service.teamId));
    assert.equal((await bob('GET', '/v1/teams', { headers: { team_id: service.teamId } })).status, 403);
    const envelope = await bob('POST', '/v1/autotrain/generate_labels', { json: { team_id: service.teamId, req: { summary: {} } } });
    assert.equal(envelope.status, 422, 'the body is validated before the team');
    assert.equal((await bob('GET', `/v1/autotrain/check_training_status?training_id=x&team_id=${service.teamId}`)).status, 403);

    assert.equal((await alice('GET', `/v1/models/${model.model_id}`)).status, 200, 'the owner still sees it');
    const own = await bob('GET', `/v1/models/teams/${bobTeam}`);
    assert.deepEqual(own.body, []);
  });

  it('keys create for an existing team gives a second key to the same team', async () => {
    const again = await runCli(['keys', 'create', ...storeArgs(service), '--team', 'research']);
    const key = JSON.parse(again.stdout) as { api_key: string; team_id: string };
    assert.equal(key.team_id, bobTeam);
    const other = client(service.url, key.api_key);
    const trained = await trainSmall(bob);
    assert.equal((await other('GET', `/v1/models/${trained.model_id}`)).status, 200);
  });

  it('keys list names keys by id only, and keys revoke makes a key fail on the running service', async () => {
    const made = JSON.parse((await runCli(['keys', 'create', ...storeArgs(service), '--team', 'short-lived'])).stdout) as { api_key: string };
    const temp = client(service.url, made.api_key);
    assert.equal((await temp('GET', '/v1/teams')).status, 200);
    const listed = await runCli(['keys', 'list', ...storeArgs(service)]);
    assert.equal(listed.code, 0, listed.stderr);
    const keys = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as { key_id: string; teams: string[] });
    assert.ok(!listed.stdout.includes(made.api_key), 'the list never shows a key');
    const mine = keys.find((k) => k.teams.includes('short-lived'));
    assert.ok(mine && /^[0-9a-f]{12}$/.test(mine.key_id));
    const revoked = await runCli(['keys', 'revoke', ...storeArgs(service), '--key-id', mine.key_id]);
    assert.equal(revoked.code, 0, revoked.stderr);
    // Once the service's short-lived memory of the key lapses (how soon: `npm run bench -- limits`).
    let status = 200;
    while (status === 200) {
      status = (await temp('GET', '/v1/teams')).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(status, 401, 'the revoked key fails');
    assert.equal((await runCli(['keys', 'revoke', ...storeArgs(service), '--key-id', mine.key_id])).code, 2, 'an unknown id is refused');
    assert.equal((await bob('GET', '/v1/teams')).status, 200, 'other keys keep working');
  });
});
