// Builds every bundle of the extension: the extension host entry, the CLI (local service), worker threads,
// and one browser bundle per webview entry. `--watch` rebuilds on change, `--production` minifies.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, basename } from 'node:path';
import { cliBundle, extensionBundle, nodeBundle, webviewBundle } from './scripts/nodeBundle.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

function listFiles(dir, predicate) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full, predicate));
    else if (predicate(full)) out.push(full);
  }
  return out;
}

const workerEntries = listFiles('src', (f) => f.endsWith('.worker.ts'));
const webviewEntries = readdirSync('webview')
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => join('webview', f));

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
};

const node = { ...common, ...nodeBundle };

const builds = [
  { ...common, ...extensionBundle, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist' },
  { ...common, ...cliBundle, entryPoints: { cli: 'src/cli.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
  ...(workerEntries.length
    ? [{ ...node, entryPoints: Object.fromEntries(workerEntries.map((f) => [basename(f, '.ts'), f])), outdir: 'dist' }]
    : []),
  ...(webviewEntries.length
    ? [{
        ...common,
        ...webviewBundle,
        // Minified in every build: the webview parses its script before its first chart (source maps still map it).
        minify: true,
        entryPoints: Object.fromEntries(webviewEntries.map((f) => [basename(f, '.ts'), f])),
        outdir: 'dist/webview',
      }]
    : []),
];

function copyAssets() {
  mkdirSync('dist/webview', { recursive: true });
  copyFileSync('node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.wasm', 'dist/node-sqlite3-wasm.wasm');
  for (const f of ['codicon.css', 'codicon.ttf']) {
    copyFileSync(join('node_modules/@vscode/codicons/dist', f), join('dist/webview', f));
  }
}

// A production build starts from an empty dist/ so that no stale bundle or source map is packaged.
if (production) rmSync('dist', { recursive: true, force: true });
copyAssets();
if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
