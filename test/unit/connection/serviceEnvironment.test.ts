import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { localServiceEnvironment } from '../../../src/connection/serviceEnvironment';
import { buildService, removeDir, tempDataDir } from '../service/harness';

/** What a user who runs a team server may have in the environment VS Code was started from. */
const TEAM_SERVER_ENV = {
  XMODELS_DATABASE_URL: 'postgres://xmodels:secret@127.0.0.1:9/team',
  XMODELS_CONNECTIONS: 'sales=postgres://sales:secret@127.0.0.1:9/sales',
  XMODELS_DATA_DIR: '/srv/xmodels',
  XMODELS_UPLOAD_LIMIT_MB: '1',
  PGHOST: 'db.internal',
  PGUSER: 'xmodels',
  PGPASSWORD: 'secret',
  PGDATABASE: 'team',
  DATABASE_URL: 'postgres://xmodels:secret@db.internal/team',
  NODE_OPTIONS: '--inspect=9229',
  NODE_PATH: '/opt/other/node_modules',
};

const NETWORK_ENV = {
  HTTP_PROXY: 'http://proxy.internal:3128',
  HTTPS_PROXY: 'http://proxy.internal:3128',
  NO_PROXY: 'localhost,127.0.0.1',
  http_proxy: 'http://proxy.internal:3128',
  https_proxy: 'http://proxy.internal:3128',
  no_proxy: 'localhost',
  NODE_EXTRA_CA_CERTS: '/etc/ssl/company.pem',
  SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt',
  SSL_CERT_DIR: '/etc/ssl/certs',
};

describe('the local service environment', () => {
  it('leaves out every variable that selects a database, a team or another Node setup', () => {
    const env = localServiceEnvironment({ PATH: '/usr/bin', HOME: '/home/u', ...TEAM_SERVER_ENV }, 'linux');
    for (const name of Object.keys(TEAM_SERVER_ENV)) assert.equal(env[name], undefined, name);
    assert.deepEqual(env, { PATH: '/usr/bin', HOME: '/home/u', ELECTRON_RUN_AS_NODE: '1' });
  });

  it('passes the proxy and certificate variables in both spellings, the locale and the temp folders', () => {
    const env = localServiceEnvironment({ ...NETWORK_ENV, LANG: 'de_DE.UTF-8', LC_ALL: 'C.UTF-8', LC_NUMERIC: 'C', TMPDIR: '/var/tmp', TZ: 'Europe/Berlin' }, 'linux');
    for (const [name, value] of Object.entries(NETWORK_ENV)) assert.equal(env[name], value, name);
    assert.equal(env.LANG, 'de_DE.UTF-8');
    assert.equal(env.LC_ALL, 'C.UTF-8');
    assert.equal(env.LC_NUMERIC, 'C');
    assert.equal(env.TMPDIR, '/var/tmp');
    assert.equal(env.TZ, 'Europe/Berlin');
  });

  it("passes the text-generation variables that autotrain falls back to when the settings hold no key", () => {
    const env = localServiceEnvironment({ OPENAI_API_KEY: 'sk-1', OPENAI_BASE_URL: 'https://llm.internal/v1', AZURE_OPENAI_ENDPOINT: 'https://a.openai.azure.com', AZURE_OPENAI_API_KEY: 'az-1' }, 'linux');
    assert.equal(env.OPENAI_API_KEY, 'sk-1');
    assert.equal(env.OPENAI_BASE_URL, 'https://llm.internal/v1');
    assert.equal(env.AZURE_OPENAI_ENDPOINT, 'https://a.openai.azure.com');
    assert.equal(env.AZURE_OPENAI_API_KEY, 'az-1');
  });

  it('sets ELECTRON_RUN_AS_NODE whatever the host had', () => {
    assert.equal(localServiceEnvironment({ ELECTRON_RUN_AS_NODE: '0' }, 'linux').ELECTRON_RUN_AS_NODE, '1');
  });

  it('matches names in any case on Windows, and only exact names elsewhere', () => {
    const host = { Path: 'C:\\Windows', SYSTEMROOT: 'C:\\Windows', windir: 'C:\\Windows', UserProfile: 'C:\\Users\\u', AppData: 'C:\\Users\\u\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local', Temp: 'C:\\Temp', Xmodels_Database_Url: 'postgres://x@h/db', PgPassword: 'secret' };
    const windows = localServiceEnvironment(host, 'win32');
    assert.deepEqual(Object.keys(windows).sort(), ['AppData', 'ELECTRON_RUN_AS_NODE', 'LOCALAPPDATA', 'Path', 'SYSTEMROOT', 'Temp', 'UserProfile', 'windir']);
    assert.deepEqual(Object.keys(localServiceEnvironment(host, 'linux')).sort(), ['ELECTRON_RUN_AS_NODE', 'LOCALAPPDATA', 'windir']);
  });

  it('starts a service on its own data folder, not on the database of XMODELS_DATABASE_URL', async function () {
    this.timeout(60_000);
    const dir = await buildService();
    const dataDir = tempDataDir();
    const child = spawn(process.execPath, [join(dir, 'cli.js'), 'serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir], {
      env: localServiceEnvironment({ ...process.env, ...TEAM_SERVER_ENV }),
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`the service exited with ${code}: ${stderr}`)));
      });
      const printed = JSON.parse(line) as { url: string; api_key?: string; team_id: string };
      assert.ok(printed.api_key, 'a new embedded store prints its default key');
      assert.ok(existsSync(join(dataDir, 'xmodels.db')), 'the store is the SQLite file in the data folder');
      const connections = await fetch(`${printed.url}/v1/connections`, { headers: { api_key: printed.api_key } });
      assert.deepEqual(await connections.json(), [], 'no connection of XMODELS_CONNECTIONS');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
      removeDir(dataDir);
    }
  });
});
