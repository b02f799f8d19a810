// Installs VS Code's server (npm package code-server) and the Debian packages the real-VS-Code tests need.
// Fast when already installed. The logic lives in test/vscode/lib/codeServer.ts.
import { createRequire } from 'node:module';
import { register } from 'tsx/cjs/api';

register();
const require = createRequire(import.meta.url);

const started = Date.now();
const { ensureCodeServer } = require('../test/vscode/lib/codeServer.ts');
try {
  const { installed } = ensureCodeServer();
  if (!installed) console.log(`code-server already installed (checked in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
