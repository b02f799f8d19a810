// The product as users install it: `npm run package` writes xmodels.vsix (which must stay under 3 MB), then the
// UI smoke and Models-tree tests run against that .vsix installed into the test VS Code, not the development build.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';

const MAX_BYTES = 3 * 1024 * 1024;
const vsix = resolve('xmodels.vsix');
const run = (args, env = {}) => spawnSync('npm', args, { stdio: 'inherit', env: { ...process.env, ...env } }).status === 0;

if (!run(['run', 'package'])) {
  console.error('npm run package failed');
  process.exit(1);
}
const size = statSync(vsix).size;
console.log(`xmodels.vsix: ${(size / 1024 / 1024).toFixed(2)} MB (limit 3 MB)`);
if (size >= MAX_BYTES) {
  console.error(`xmodels.vsix is ${size} bytes, over the 3 MB limit`);
  process.exit(1);
}
process.exit(run(['run', 'test:ui', '--', '--grep', 'smoke|Models tree'], { XMODELS_TEST_VSIX: vsix }) ? 0 : 1);
