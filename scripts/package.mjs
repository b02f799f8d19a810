// `npm run package` writes the universal xmodels.vsix (no native module: PostgreSQL connections, no DuckDB).
// `npm run package -- --target linux-x64` (or another VS Code target) writes xmodels-<target>.vsix, which also carries
// DuckDB's Node package and its native binary for that platform under dist/node_modules, where the service
// (dist/cli.js) finds it. A binary for a platform other than this machine's is fetched with `npm pack`.
// `--out FILE` writes the package elsewhere.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** VS Code's platform targets → the DuckDB binding package built for each. */
const DUCKDB_BINDINGS = {
  'linux-x64': 'linux-x64',
  'linux-arm64': 'linux-arm64',
  'alpine-x64': 'linux-x64-musl',
  'alpine-arm64': 'linux-arm64-musl',
  'darwin-x64': 'darwin-x64',
  'darwin-arm64': 'darwin-arm64',
  'win32-x64': 'win32-x64',
  'win32-arm64': 'win32-arm64',
};
/** What `require('@duckdb/node-api')` loads, besides the platform's binding. */
const DUCKDB_PACKAGES = ['@duckdb/node-api', '@duckdb/node-bindings', 'detect-libc'];
const STAGED = 'dist/node_modules';

const args = process.argv.slice(2);
const option = (name) => (args.indexOf(name) === -1 ? undefined : args[args.indexOf(name) + 1]);
const target = option('--target');
const out = option('--out') ?? (target ? `xmodels-${target}.vsix` : 'xmodels.vsix');
if (args.includes('--target') && !(target in DUCKDB_BINDINGS)) {
  console.error(`--target must be one of ${Object.keys(DUCKDB_BINDINGS).join(', ')} (got ${target ?? 'nothing'}).`);
  process.exit(2);
}

const run = (cmd, cmdArgs, options = {}) => {
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (exit ${r.status ?? r.signal})`);
};

/** Type declarations, source maps and READMEs: nothing the service loads. */
const prune = (dir) =>
  readdirSync(dir, { recursive: true })
    .filter((file) => /\.(d\.ts|map|md)$/.test(file) && !/license/i.test(file))
    .forEach((file) => rmSync(join(dir, file)));

/** Copies a package from node_modules, or for a binding of another platform unpacks it from the registry. */
function stage(name) {
  const from = join('node_modules', name);
  const to = join(STAGED, name);
  if (existsSync(from)) {
    cpSync(from, to, { recursive: true, dereference: true });
    return;
  }
  const version = JSON.parse(readFileSync('node_modules/@duckdb/node-bindings/package.json', 'utf8')).version;
  const dir = mkdtempSync(join(tmpdir(), 'xmodels-pack-'));
  try {
    const packed = spawnSync('npm', ['pack', `${name}@${version}`, '--silent'], { cwd: dir, encoding: 'utf8' });
    if (packed.status !== 0) throw new Error(`npm pack ${name}@${version} failed: ${packed.stderr.trim()}`);
    run('tar', ['-xzf', join(dir, packed.stdout.trim()), '-C', dir]);
    cpSync(join(dir, 'package'), to, { recursive: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

run('npm', ['run', 'build', '--', '--production']);
const vsce = ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links'];
rmSync(STAGED, { recursive: true, force: true });
if (!target) {
  run('npx', [...vsce, '--out', out]);
} else {
  const ignoreFile = join(mkdtempSync(join(tmpdir(), 'xmodels-ignore-')), '.vscodeignore');
  try {
    for (const name of [...DUCKDB_PACKAGES, `@duckdb/node-bindings-${DUCKDB_BINDINGS[target]}`]) stage(name);
    prune(STAGED);
    writeFileSync(ignoreFile, `${readFileSync('.vscodeignore', 'utf8')}\n!${STAGED}/**\n`);
    run('npx', [...vsce, '--target', target, '--ignoreFile', ignoreFile, '--out', out]);
  } finally {
    rmSync(STAGED, { recursive: true, force: true });
    rmSync(ignoreFile, { force: true });
  }
}
