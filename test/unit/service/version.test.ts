import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, useService } from './harness';

const json = (file: string) => JSON.parse(readFileSync(join(REPO, file), 'utf8')) as { version: string; packages: Record<string, { version: string }> };

/** The version of the newest `## x.y.z` heading of the changelog. */
function newestChangelogVersion(): string | undefined {
  return /^## (\d+\.\d+\.\d+)\b/m.exec(readFileSync(join(REPO, 'CHANGELOG.md'), 'utf8'))?.[1];
}

describe('one version number everywhere', function () {
  this.timeout(60_000);
  const env = useService();
  const version = json('package.json').version;

  it("package.json states the changelog's newest version, and so does package-lock.json's root", () => {
    assert.equal(version, newestChangelogVersion());
    const lock = json('package-lock.json');
    assert.equal(lock.version, version);
    assert.equal(lock.packages[''].version, version);
  });

  it('the running service reports it in its health and its OpenAPI document', async () => {
    const health = await env.call('GET', '/v1/health', { key: null });
    assert.equal(health.status, 200);
    assert.equal(health.body.version, version);
    const openapi = await env.call('GET', '/v1/openapi.json', { key: null });
    assert.equal(openapi.body.info.version, version);
  });
});
