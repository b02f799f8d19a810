import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { startProxy, startServer, type Loopback, type LoopbackProxy } from '../client/loopback';

const root = join(__dirname, '../../..');

interface BundleOptions {
  extensionBundle: esbuild.BuildOptions;
  EXTENSION_BUNDLE_LIMIT_BYTES: number;
}

async function bundleOptions(): Promise<BundleOptions> {
  return (await import(pathToFileURL(join(root, 'scripts/nodeBundle.mjs')).href)) as BundleOptions;
}

/** Builds `entry` minified with the extension host's options, as `npm run package` does, into `outfile`. */
async function build(entry: string, outfile: string): Promise<void> {
  const { extensionBundle } = await bundleOptions();
  await esbuild.build({ ...extensionBundle, entryPoints: [join(root, entry)], outfile, bundle: true, minify: true, legalComments: 'none', logLevel: 'error' });
}

interface BundledClient {
  health(): Promise<{ status: string; version: string }>;
  close(): Promise<void>;
}

describe('the extension bundle', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'xmodels-bundle-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('stays under its size limit when minified (the file VS Code loads on activation)', async () => {
    const { EXTENSION_BUNDLE_LIMIT_BYTES } = await bundleOptions();
    const outfile = join(dir, 'extension.js');
    await build('src/extension.ts', outfile);
    const bytes = statSync(outfile).size;
    assert.ok(bytes < EXTENSION_BUNDLE_LIMIT_BYTES, `dist/extension.js would be ${(bytes / 1024).toFixed(1)} KB, over ${EXTENSION_BUNDLE_LIMIT_BYTES / 1024} KB`);
  });

  describe('its client, with the parts of undici it leaves out', () => {
    let service: Loopback;
    let proxy: LoopbackProxy;
    let XModelsClient: new (options: Record<string, unknown>) => BundledClient;
    before(async () => {
      const outfile = join(dir, 'client.js');
      await build('src/client/index.ts', outfile);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      ({ XModelsClient } = require(outfile) as { XModelsClient: typeof XModelsClient });
      service = await startServer((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', version: req.url, local: true, features: [] }));
      });
      proxy = await startProxy('user:secret');
    });
    after(async () => {
      await service.close();
      await proxy.close();
    });

    it('answers a request directly and keeps the connection for the next one', async () => {
      const client = new XModelsClient({ baseUrl: service.url, apiKey: 'k'.repeat(16), proxy: null });
      try {
        assert.deepEqual(await client.health(), { status: 'ok', version: '/v1/health', local: true, features: [] });
        assert.equal((await client.health()).status, 'ok');
      } finally {
        await client.close();
      }
    });

    it('answers a request through a proxy that requires authentication', async () => {
      const withCredentials = proxy.url.replace('http://', 'http://user:secret@');
      const client = new XModelsClient({ baseUrl: service.url, apiKey: 'k'.repeat(16), proxy: withCredentials });
      try {
        assert.equal((await client.health()).status, 'ok');
        assert.ok(proxy.log.some((entry) => entry.authorization === `Basic ${Buffer.from('user:secret').toString('base64')}`), 'the proxy carried the request');
      } finally {
        await client.close();
      }
    });
  });
});
