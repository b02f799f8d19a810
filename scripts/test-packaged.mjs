// The product as users install it. `npm run package` writes xmodels.vsix (which must stay under 3 MB): the UI smoke
// and Models-tree tests run against that .vsix installed into the test VS Code, not the development build, and its
// service, unpacked outside the repository, must refuse a DuckDB connection by naming the package it lacks. On a
// platform with a DuckDB build (CI's linux-x64), the platform package xmodels-<target>.vsix is written too and its
// service, unpacked alike, trains a DuckDB table where it lives.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const MAX_BYTES = 3 * 1024 * 1024;
const vsix = resolve('xmodels.vsix');
const run = (args, env = {}) => spawnSync('npm', args, { stdio: 'inherit', env: { ...process.env, ...env } }).status === 0;
const mb = (file) => `${(statSync(file).size / 1024 / 1024).toFixed(2)} MB`;
const serviceTest = (pkg, duckdb) => run(['exec', '--', 'mocha', 'test/packaged/service.test.ts'], { XMODELS_TEST_VSIX: pkg, XMODELS_TEST_DUCKDB: duckdb ? '1' : '0' });

if (!run(['run', 'package'])) {
  console.error('npm run package failed');
  process.exit(1);
}
console.log(`xmodels.vsix: ${mb(vsix)} (limit 3 MB)`);
if (statSync(vsix).size >= MAX_BYTES) {
  console.error(`xmodels.vsix is ${statSync(vsix).size} bytes, over the 3 MB limit`);
  process.exit(1);
}
const results = [
  run(['run', 'test:ui', '--', '--grep', 'smoke|Models tree'], { XMODELS_TEST_VSIX: vsix }),
  serviceTest(vsix, false),
];
const target = { 'linux-x64': 'linux-x64', 'linux-arm64': 'linux-arm64', 'darwin-x64': 'darwin-x64', 'darwin-arm64': 'darwin-arm64', 'win32-x64': 'win32-x64' }[
  `${process.platform}-${process.arch}`
];
if (target) {
  // Written outside the repository and removed after: the only .vsix left beside the sources is the universal one.
  const dir = mkdtempSync(join(tmpdir(), 'xmodels-platform-'));
  const platformVsix = join(dir, `xmodels-${target}.vsix`);
  try {
    const packaged = run(['run', 'package', '--', '--target', target, '--out', platformVsix]);
    if (packaged) console.log(`xmodels-${target}.vsix: ${mb(platformVsix)}`);
    results.push(packaged && serviceTest(platformVsix, true));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
process.exit(results.every(Boolean) ? 0 : 1);
