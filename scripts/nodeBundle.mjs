// The esbuild options of the bundles (extension host, CLI, workers, webviews), shared by esbuild.mjs, the benchmarks
// and the bundle-size test.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/**
 * The most the minified extension bundle (dist/extension.js, what VS Code loads) may weigh: about 480 KB with pair
 * terms in the model format, copying models between services, comparing versions and applying edit files; Node parses
 * it in a few milliseconds of the activation.
 */
export const EXTENSION_BUNDLE_LIMIT_BYTES = 500 * 1024;

/**
 * zod's `z.locales` namespace (every language's error messages, unused: English is registered on its own) cannot be
 * tree-shaken from a namespace import, so the bundles get an empty one.
 */
export const withoutZodLocales = {
  name: 'without-zod-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'empty-zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'empty-zod-locales' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/**
 * Modules undici requires for features the client never uses, each replaced by one that throws if it ever were:
 * HTTP/2 (the client's agents never offer it), SOCKS proxies (the proxy setting must be http:// or https://) and
 * fetch bodies (FormData and Blob bodies; the client sends strings, bytes and streams).
 */
const unusedUndiciModules = {
  './client-h2.js': 'module.exports = () => { throw new Error("HTTP/2 is not part of this bundle"); };',
  './socks5-proxy-agent': 'module.exports = class { constructor() { throw new Error("SOCKS proxies are not part of this bundle"); } };',
  '../web/fetch/body.js': 'module.exports = { extractBody() { throw new Error("FormData and Blob bodies are not part of this bundle"); } };',
};

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Matches exactly the specifiers above (esbuild filters plugins by a regular expression before calling them). */
const unusedUndiciModule = new RegExp(`^(${Object.keys(unusedUndiciModules).map(escapeRegExp).join('|')})$`);

/** The file beside the extension bundle that holds undici's HTTP parser (WebAssembly). */
const LLHTTP_FILE = 'llhttp.wasm';

/**
 * The undici of the client, without what it never uses (above). undici carries its HTTP parser twice, with and
 * without SIMD, each as a base64 string in JavaScript, and compiles one on the first connection: the bundle keeps
 * the one that runs everywhere, as a binary file beside it read at that moment, so loading the extension does not
 * parse it.
 */
const clientUndiciOnly = {
  name: 'client-undici-only',
  setup(build) {
    const fromUndici = (args) => /[\\/]undici[\\/]lib[\\/]/.test(args.importer);
    build.onResolve({ filter: unusedUndiciModule }, (args) =>
      fromUndici(args) ? { path: args.path, namespace: 'unused-undici' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'unused-undici' }, (args) => ({ contents: unusedUndiciModules[args.path], loader: 'js' }));
    build.onResolve({ filter: /^\.\.\/llhttp\/llhttp(_simd)?-wasm\.js$/ }, (args) =>
      fromUndici(args) ? { path: LLHTTP_FILE, namespace: 'llhttp-file' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'llhttp-file' }, () => ({
      contents: `module.exports = require('node:fs').readFileSync(require('node:path').join(__dirname, ${JSON.stringify(LLHTTP_FILE)}));`,
      loader: 'js',
    }));
    build.onEnd(() => {
      const outdir = build.initialOptions.outdir ?? dirname(build.initialOptions.outfile);
      const wasm = createRequire(import.meta.url)('undici/lib/llhttp/llhttp-wasm.js');
      mkdirSync(outdir, { recursive: true });
      writeFileSync(`${outdir}/${LLHTTP_FILE}`, wasm);
    });
  },
};

/**
 * Packages the bundles load from node_modules at run time rather than carry: VS Code's API, and DuckDB's package,
 * whose native binary cannot be bundled (the service loads it at its first DuckDB connection and says so when it is
 * missing).
 */
export const RUNTIME_PACKAGES = ['vscode', '@duckdb/node-api'];

export const nodeBundle = {
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: RUNTIME_PACKAGES,
  plugins: [withoutZodLocales],
};

/** The Parquet packages the extension host loads only when a command reads or writes a Parquet file. */
const PARQUET_PACKAGES = ['hyparquet', 'hyparquet-compressors', 'hyparquet-writer'];

/**
 * hyparquet, its compressors (brotli's dictionary alone is larger than the rest of the extension) and its writer are
 * bundled as files of their own beside the extension bundle (`dist/hyparquet.js`…), which `import('hyparquet')`
 * requires when first called, so activating the extension never loads them.
 */
const parquetBeside = {
  name: 'parquet-beside',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(${PARQUET_PACKAGES.join('|')})$`) }, (args) => ({ path: `./${args.path}.js`, external: true }));
    build.onEnd(async () => {
      const outdir = build.initialOptions.outdir ?? dirname(build.initialOptions.outfile);
      await build.esbuild.build({
        ...nodeBundle,
        entryPoints: Object.fromEntries(PARQUET_PACKAGES.map((name) => [name, name])),
        outdir,
        bundle: true,
        minify: build.initialOptions.minify,
        legalComments: 'none',
        logLevel: 'error',
      });
    });
  },
};

/**
 * The extension host's bundle: the client's transport and nothing else of undici; the Parquet packages beside it,
 * required on first use (a dynamic import becomes a require, which the extension host supports everywhere).
 */
export const extensionBundle = {
  ...nodeBundle,
  supported: { 'dynamic-import': false },
  plugins: [withoutZodLocales, clientUndiciOnly, parquetBeside],
};

/** The CLI's bundle: the service, and the client's transport for copy-model with the same undici as the extension's. */
export const cliBundle = { ...nodeBundle, plugins: [withoutZodLocales, clientUndiciOnly] };

/** The webviews' bundles: one browser script per panel. */
export const webviewBundle = { platform: 'browser', format: 'iife', target: 'es2022' };
